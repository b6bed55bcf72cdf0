//! Rows of the hypergeometric functions hyp1f1 and hyp2f1 (real and
//! complex loops) and Lambert's W (hyper.cuh).

entries! {
    "hyp1f1", 3, "fff->f ffF->F ddd->d ddD->D", HYPER, "hyp1f1", "confluent hypergeometric function 1F1(a; b; x)";
    "hyp2f1", 4, "dddd->d dddD->D ffff->f fffF->F", HYPER, "hyp2f1", "Gauss hypergeometric function 2F1(a, b; c; x)";
    "lambertw", 3, "Dld->D", HYPER, "lambertw", "branch k of the Lambert W function";
}
