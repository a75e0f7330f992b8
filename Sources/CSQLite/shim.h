#ifndef NARRATOR_CSQLITE_SHIM_H
#define NARRATOR_CSQLITE_SHIM_H
#include <sqlite3.h>
#endif
