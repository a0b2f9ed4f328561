/*
 * A stand-in for Windows' bcryptprimitives.dll, for running Go programs
 * under Wine 8 (Debian 12's), which lacks it. The Go runtime (1.24 and
 * later) loads that DLL from system32 at start-up, before anything else,
 * and takes its random numbers from ProcessPrng; without the DLL, every Go
 * program dies with "bcryptprimitives.dll not found". This one exports
 * ProcessPrng, filled from RtlGenRandom (advapi32's SystemFunction036),
 * which Wine has. Newer Wine (9 and later) has the DLL itself.
 *
 * Built by the heavy test TestWindowsUnderWine:
 *   x86_64-w64-mingw32-gcc -shared -O2 -s -o bcryptprimitives.dll bcryptprimitives.c -ladvapi32
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
	while (len > 0) {
		ULONG n = len > 0x40000000 ? 0x40000000 : (ULONG)len;
		if (!SystemFunction036(data, n))
			return FALSE;
		data += n;
		len -= n;
	}
	return TRUE;
}
