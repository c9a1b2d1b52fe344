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

#endif /* EXTMEM_EXPORT_H */
