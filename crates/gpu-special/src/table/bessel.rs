//! Rows of Bessel functions of integer order beyond the reference's: exponentially scaled, the K family, yn, spherical.

entries! {}
