// libebur128: EBU R128 / ITU-R BS.1770 loudness and true peak (Debian's libebur128-dev, shared).
#ifndef CEBUR128_SHIM_H
#define CEBUR128_SHIM_H

#include <ebur128.h>

#endif
