/*
 * How a Q8_0 weight's layout in memory bounds the m = 1 product on a CPU: the same
 * loop (the native engine's `stream` kernel, written by hand with AVX-512 intrinsics)
 * over one 4096 x 4096 int8 weight stored four ways, each timed from cold caches.
 *
 *     cc -O3 -march=native benchmarks/layout_probe.c -o /tmp/layout_probe && /tmp/layout_probe
 *
 * Needs an x86-64 CPU with AVX-512F and Linux (transparent huge pages asked for with
 * madvise, as `memory.in_huge_pages` does). It is a probe for a design choice, not part
 * of the package: docs/speed.md gives what it measured and why.
 *
 * The loop: each of N / 256 items sums its 256 columns over all K rows, block by block
 * (32 rows a block, the 256 sums in 16 vector registers), then adds each block's sums
 * times the block's fp32 scales into the output. The layouts, element (k, n) at:
 *   rows      k * N + n                                 (K x N, what the engine reads)
 *   tiles     ((k/32) * (N/32) + n/32) * 1024 + (k%32) * 32 + n%32   (32 x 32 tiles)
 *   columns   (n/32) * K * 32 + k * 32 + n%32           (a 32-column strip, all K rows)
 *   strips    (n/256) * K * 256 + k * 256 + n%256       (an item's columns, all K rows)
 * `rows, ahead` is `rows` asking for each row's columns of the next block into the
 * first-level cache (PREFETCHT0, 32 rows on: what the engine's kernel asks for). Every
 * layout sums the same terms in the same order, so the outputs are checked bit for bit.
 * Before each timed run a 64 MiB read evicts the caches. The table gives the median and
 * minimum of 41 runs and the weight's bytes (values and scales) over the median, beside
 * a plain sequential read of the values.
 */
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

enum { K = 4096, N = 4096, ITEM = 256, ROUNDS = 41, FLUSH = 64 << 20, HUGE = 2 << 20 };

static const float *scales, *x;
static float *y;
static uint8_t *flush;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static void evict(void) {
    volatile uint8_t sink = 0;
    for (size_t i = 0; i < FLUSH; i += 64) sink |= flush[i];
}

static void *huge_pages(size_t bytes) {
    uint8_t *p = mmap(0, bytes + HUGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) exit(1);
    p = (uint8_t *)(((uintptr_t)p + HUGE - 1) & ~(uintptr_t)(HUGE - 1));
    madvise(p, bytes, MADV_HUGEPAGE);
    memset(p, 0, bytes);
    return p;
}

typedef size_t (*Layout)(size_t k, size_t n);
static size_t rows(size_t k, size_t n) { return k * N + n; }
static size_t tiles(size_t k, size_t n) { return ((k / 32) * (N / 32) + n / 32) * 1024 + (k % 32) * 32 + n % 32; }
static size_t columns(size_t k, size_t n) { return (n / 32) * K * 32 + k * 32 + n % 32; }
static size_t strips(size_t k, size_t n) { return (n / ITEM) * K * ITEM + k * ITEM + n % ITEM; }

/* The product over a weight `w` stored as `at` says; with `ahead`, each row first asks
 * for its columns of the next block. 16 bytes of a row at (k, n) are contiguous in
 * every layout (n a multiple of 16). */
static inline __attribute__((always_inline)) void product(const int8_t *w, Layout at, int ahead) {
    memset(y, 0, N * sizeof(float));
    for (size_t c0 = 0; c0 < N; c0 += ITEM)
        for (size_t kb = 0; kb < K / 32; kb++) {
            __m512 acc[ITEM / 16];
            for (int j = 0; j < ITEM / 16; j++) acc[j] = _mm512_setzero_ps();
            for (size_t l = 0; l < 32; l++) {
                size_t k = kb * 32 + l;
                __m512 xv = _mm512_set1_ps(x[k]);
                if (ahead && k + 32 < K)
                    for (size_t c = 0; c < ITEM; c += 64)
                        _mm_prefetch((const char *)(w + at(k + 32, c0 + c)), _MM_HINT_T0);
                for (int j = 0; j < ITEM / 16; j++) {
                    __m128i v = _mm_load_si128((const __m128i *)(w + at(k, c0 + 16 * j)));
                    acc[j] = _mm512_fmadd_ps(xv, _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(v)), acc[j]);
                }
            }
            for (int j = 0; j < ITEM / 16; j++) {
                float *o = y + c0 + 16 * j;
                __m512 s = _mm512_load_ps(scales + kb * N + c0 + 16 * j);
                _mm512_store_ps(o, _mm512_fmadd_ps(acc[j], s, _mm512_load_ps(o)));
            }
        }
}

/* Each layout's product as its own code (the layout's address arithmetic inlined). */
static void run(int i, const int8_t *w) {
    switch (i) {
    case 0: product(w, rows, 0); break;
    case 1: product(w, rows, 1); break;
    case 2: product(w, tiles, 0); break;
    case 3: product(w, columns, 0); break;
    default: product(w, strips, 0); break;
    }
}

static long sequential(const int8_t *w) {
    __m512i a = _mm512_setzero_si512();
    for (size_t i = 0; i < (size_t)K * N; i += 64) a = _mm512_add_epi32(a, _mm512_load_si512(w + i));
    return _mm512_reduce_add_epi32(a);
}

static int by_time(const void *a, const void *b) {
    double d = *(const double *)a - *(const double *)b;
    return (d > 0) - (d < 0);
}

int main(void) {
    static const char *names[] = {"rows", "rows, ahead", "tiles", "columns", "strips"};
    static const Layout layouts[] = {rows, rows, tiles, columns, strips};
    enum { NL = 5 };
    int8_t *w[NL];
    for (int i = 0; i < NL; i++) w[i] = i == 1 ? w[0] : huge_pages((size_t)K * N);
    for (size_t k = 0; k < K; k++)
        for (size_t n = 0; n < N; n++)
            for (int i = 0; i < NL; i++) w[i][layouts[i](k, n)] = (int8_t)((k * 31 + n * 7) % 251 - 125);
    float *s = aligned_alloc(64, (size_t)K / 32 * N * sizeof(float)), *xs = aligned_alloc(64, K * sizeof(float));
    for (size_t i = 0; i < (size_t)K / 32 * N; i++) s[i] = 0.25f * (float)(i % 7 + 1);
    for (int i = 0; i < K; i++) xs[i] = (float)(i % 5 - 2);
    scales = s, x = xs;
    y = aligned_alloc(64, N * sizeof(float));
    flush = malloc(FLUSH);
    memset(flush, 1, FLUSH);

    static float first[N];
    for (int i = 0; i < NL; i++) {
        run(i, w[i]);
        if (i == 0) memcpy(first, y, sizeof first);
        else if (memcmp(first, y, sizeof first)) {
            printf("%s: not the same bits as rows\n", names[i]);
            return 1;
        }
    }
    static double t[NL + 1][ROUNDS];
    for (int r = 0; r < ROUNDS; r++)
        for (int i = 0; i <= NL; i++) {
            evict();
            double t0 = now();
            if (i == NL) {
                volatile long sink = sequential(w[0]);
                (void)sink;
            } else
                run(i, w[i]);
            t[i][r] = now() - t0;
        }
    double bytes = (double)K * N * 1.125; /* values and fp32 scales */
    printf("K = N = %d, one thread, from cold caches, %d runs each\n", K, ROUNDS);
    printf("%-12s %9s %9s %8s\n", "layout", "median ms", "min ms", "GB/s");
    for (int i = 0; i <= NL; i++) {
        qsort(t[i], ROUNDS, sizeof(double), by_time);
        double med = t[i][ROUNDS / 2];
        printf("%-12s %9.3f %9.3f %8.1f\n", i == NL ? "(read)" : names[i], med * 1e3, t[i][0] * 1e3,
               (i == NL ? (double)K * N : bytes) / med / 1e9);
    }
    return 0;
}
