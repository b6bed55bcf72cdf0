//! Rows of elementary-like functions: expm1, log1p, cbrt, exp2, exp10, round, sinc, the degree trigonometry, xlogy, xlog1py, exprel, boxcox, log_expit.

entries! {}
