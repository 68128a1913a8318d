#ifndef CQRENCODE_SHIM_H
#define CQRENCODE_SHIM_H
// Debian's libqrencode (libqrencode-dev): QRcode_encodeString and QRcode_free are all previewd-web uses.
#include <qrencode.h>
#endif
