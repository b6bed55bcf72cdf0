//! Rows of elementary-like functions: expm1, log1p, cbrt, exp2, exp10,
//! round, the degree trigonometry, xlogy, xlog1py, exprel, the Box-Cox
//! transforms, log_expit and numpy's sinc (elementary.cuh).

entries! {
    "expm1", 1, "dfDF", ELEMENTARY, "expm1", "exp(x) - 1, exact for small x";
    "log1p", 1, "dfDF", ELEMENTARY, "log1p", "log(1 + x), exact for small x";
    "cbrt", 1, "df", ELEMENTARY, "cbrt", "cube root";
    "exp2", 1, "df", ELEMENTARY, "exp2", "2 to the power x";
    "exp10", 1, "df", ELEMENTARY, "exp10", "10 to the power x";
    "round", 1, "fd", ELEMENTARY, "round", "nearest integer, halves to even";
    "sindg", 1, "df", ELEMENTARY, "sindg", "sine of an angle in degrees";
    "cosdg", 1, "df", ELEMENTARY, "cosdg", "cosine of an angle in degrees";
    "tandg", 1, "df", ELEMENTARY, "tandg", "tangent of an angle in degrees";
    "cotdg", 1, "df", ELEMENTARY, "cotdg", "cotangent of an angle in degrees";
    "radian", 3, "df", ELEMENTARY, "radian", "degrees, minutes and seconds to radians";
    "xlogy", 2, "dfDF", ELEMENTARY, "xlogy", "x log(y), 0 where x = 0";
    "xlog1py", 2, "dfDF", ELEMENTARY, "xlog1py", "x log1p(y), 0 where x = 0";
    "exprel", 1, "df", ELEMENTARY, "exprel", "relative error exponential (exp(x) - 1) / x";
    "boxcox", 2, "fd", ELEMENTARY, "boxcox", "Box-Cox transform (x^lambda - 1) / lambda";
    "boxcox1p", 2, "fd", ELEMENTARY, "boxcox1p", "Box-Cox transform of 1 + x";
    "inv_boxcox", 2, "fd", ELEMENTARY, "inv_boxcox", "inverse of the Box-Cox transform";
    "inv_boxcox1p", 2, "fd", ELEMENTARY, "inv_boxcox1p", "inverse of the Box-Cox transform of 1 + x";
    "log_expit", 1, "df", ELEMENTARY, "log_expit", "logarithm of the logistic sigmoid";
    "sinc", 1, "df", ELEMENTARY, "sinc", "normalized sinc sin(pi x) / (pi x)";
}
