/* extmem/export.h: symbol visibility for the public headers. */
#ifndef EXTMEM_EXPORT_H
#define EXTMEM_EXPORT_H

#if defined(EXTMEM_STATIC)
#define EXTMEM_API
#elif defined(_WIN32)
#if defined(EXTMEM_BUILDING)
#define EXTMEM_API __declspec(dllexport)
#else
#define EXTMEM_API __declspec(dllimport)
#endif
#elif defined(__GNUC__)
#define EXTMEM_API __attribute__((visibility("default")))
#else
#define EXTMEM_API
#endif

/* printf-style argument checking. mingw-w64's GCC takes `printf` to mean Microsoft's printf,
 * which has no %zu; extmem formats with a C99 printf on every platform (mingw builds define
 * __USE_MINGW_ANSI_STDIO), so it asks for GNU's rules there. */
#if defined(__MINGW32__)
#define EXTMEM_PRINTF_FORMAT(fmt, args) __attribute__((format(gnu_printf, fmt, args)))
#elif defined(__GNUC__)
#define EXTMEM_PRINTF_FORMAT(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define EXTMEM_PRINTF_FORMAT(fmt, args)
#endif

#endif /* EXTMEM_EXPORT_H */
