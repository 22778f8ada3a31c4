#include <yajl/yajl_parse.h>

// yajl_config is variadic, which Swift cannot call: one typed door for its on/off options.
static inline int feedpull_yajl_config_flag(yajl_handle handle, yajl_option option, int on) {
  return yajl_config(handle, option, on);
}
