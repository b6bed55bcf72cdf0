//! Rows of the distributions' parameter inverses (scipy.special's CDFLIB family).

entries! {
    "gdtria", 3, "fd", CDFINV, "gdtria", "inverse of gdtr in a (the rate)";
    "gdtrib", 3, "fd", CDFINV, "gdtrib", "inverse of gdtr in b (the shape)";
    "chdtriv", 2, "fd", CDFINV, "chdtriv", "inverse of chdtr in v (the degrees of freedom)";
    "pdtrik", 2, "fd", CDFINV, "pdtrik", "inverse of pdtr in k (continuous)";
    "bdtrik", 3, "fd", CDFINV, "bdtrik", "inverse of bdtr in k (continuous)";
    "bdtrin", 3, "fd", CDFINV, "bdtrin", "inverse of bdtr in n (continuous)";
    "nbdtrik", 3, "fd", CDFINV, "nbdtrik", "inverse of nbdtr in k (continuous)";
    "nbdtrin", 3, "fd", CDFINV, "nbdtrin", "inverse of nbdtr in n (continuous)";
    "stdtridf", 2, "fd", CDFINV, "stdtridf", "inverse of stdtr in df";
    "fdtridfd", 3, "fd", CDFINV, "fdtridfd", "inverse of fdtr in dfd";
}
