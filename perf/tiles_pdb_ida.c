/* A plain C reference of cliffbench's pattern-database IDA* (searches/support/tiles_ida_kernel.py
 * with the PDB kind), for perf/tiles_pdb_vs_c.py to measure the numba kernel against.
 *
 * The same search, so that the node counts agree to the node: the blank's moves in the order up,
 * left, right, down (never the one undoing the last move), nodes counted on generation (every
 * child, whatever its f; the start state not counted), the goal tested on generation and the
 * search stopped there, the next threshold the least f over the current one, and bidirectional
 * pathmax when switched on (a child more than one above its parent raises the parent's h, which
 * may cut the parent's other children; a child's raised h passes up on the way back).
 *
 * The same heuristic: the additive tables of a partition, each pattern's value the Manhattan
 * distance of its tiles plus twice the 4-bit entry at the lexicographic rank of its tiles' cells
 * (the "nibble" encoding of searches/support/tiles_pdb_encode.py), maxed with the same sum on the
 * state reflected about the main diagonal. Only the moved tile's pattern is looked up again (in
 * the state and in its reflection), its rank computed from scratch, as a C programmer would.
 *
 * Input (written by the perf script), a text spec then the tables' bytes:
 *   argv[1]: spec file:  n cols npat reflect pathmax
 *                        per pattern: k offset tile_0 .. tile_{k-1}
 *                        sigma[0..n-1]   tcell[0..n-1]   md[t*n+c] for t, c < n
 *   argv[2]: the patterns' payloads one after the other (offsets from the spec)
 *   stdin:   one instance a line: id t_0 .. t_{n-1} (cells row-major, 0 the blank)
 * Output: one line an instance: id nodes cpu_seconds length
 *
 *   cc -O2 -march=native -o tiles_pdb_ida tiles_pdb_ida.c && ./tiles_pdb_ida spec data < instances
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

#define MAXN 25
#define MAXPAT 8
#define MAXDEPTH 256

static int n, cols, npat, reflect, pathmax;
static int pk[MAXPAT], ptiles[MAXPAT][MAXN];
static int64_t poffset[MAXPAT];
static int pattern_of[MAXN], sigma_[MAXN], tcell[MAXN], md[MAXN * MAXN];
static uint8_t *data;
static int nmoves[MAXN], movedir[MAXN][4], movecell[MAXN][4];

static int board[MAXN], where_[MAXN], rwhere[MAXN];
static int vals[MAXPAT], rvals[MAXPAT], sum_, rsum;
static int64_t nodes, threshold, nxt;
static int path[MAXDEPTH];

static int pattern_value(int j, const int *w) {
    uint64_t used = 0;
    int64_t r = 0;
    int m = 0;
    for (int i = 0; i < pk[j]; i++) {
        int t = ptiles[j][i], c = w[t];
        r = r * (n - i) + (c - __builtin_popcountll(used & ((1ULL << c) - 1)));
        used |= 1ULL << c;
        m += md[t * n + c];
    }
    int e = (data[poffset[j] + (r >> 1)] >> ((r & 1) << 2)) & 15;
    return m + 2 * e;
}

static int is_goal(void) {
    for (int c = 0; c < n; c++)
        if (board[c] != c) return 0;
    return 1;
}

/* Search below the node at `depth` with the blank at b, reached by direction `came` (4: none),
 * heuristic *h (raised by pathmax). Returns 1 when solved. */
static int dfs(int depth, int b, int came, int *h) {
    for (int i = 0; i < nmoves[b]; i++) {
        int d = movedir[b][i];
        if (came < 4 && d == 3 - came) continue;
        int src = movecell[b][i], tile = board[src];
        /* the child's h: one lookup in the state, one in its reflection */
        int j = pattern_of[tile], oldv = 0, oldr = 0, u = 0, jr = -1;
        int s = sum_, rs = rsum;
        where_[tile] = b;
        where_[0] = src;
        if (j >= 0) {
            oldv = vals[j];
            vals[j] = pattern_value(j, where_);
            s += vals[j] - oldv;
        }
        int hc = s;
        if (reflect) {
            u = sigma_[tile];
            rwhere[u] = tcell[b];
            rwhere[0] = tcell[src];
            jr = pattern_of[u];
            if (jr >= 0) {
                oldr = rvals[jr];
                rvals[jr] = pattern_value(jr, rwhere);
                rs += rvals[jr] - oldr;
            }
            if (rs > hc) hc = rs;
        }
        nodes++;
        if (pathmax && hc < *h - 1) hc = *h - 1;
        int64_t f = depth + 1 + hc;
        int solved = 0, cut = 0;
        if (f > threshold) {
            if (f < nxt) nxt = f;
            if (pathmax && hc - 1 > *h) {
                *h = hc - 1;
                if (depth + *h > threshold) {
                    if (depth + *h < nxt) nxt = depth + *h;
                    cut = 1;
                }
            }
        } else {
            board[b] = tile;
            board[src] = 0;
            path[depth + 1] = d;
            int sum0 = sum_, rsum0 = rsum;
            sum_ = s;
            rsum = rs;
            if (hc == 0 && is_goal()) {
                solved = 1;
            } else {
                int hchild = hc;
                solved = dfs(depth + 1, src, d, &hchild);
                if (!solved && pathmax && hchild - 1 > *h) {
                    *h = hchild - 1;
                    if (depth + *h > threshold) {
                        if (depth + *h < nxt) nxt = depth + *h;
                        cut = 1;
                    }
                }
            }
            sum_ = sum0;
            rsum = rsum0;
            if (solved) return 1;
            board[src] = tile;
            board[b] = 0;
        }
        /* put the views back */
        where_[tile] = src;
        where_[0] = b;
        if (j >= 0) vals[j] = oldv;
        if (reflect) {
            rwhere[u] = tcell[src];
            rwhere[0] = tcell[b];
            if (jr >= 0) rvals[jr] = oldr;
        }
        if (cut) return 0;
    }
    return 0;
}

static int read_ints(FILE *f, int *out, int count) {
    for (int i = 0; i < count; i++)
        if (fscanf(f, "%d", &out[i]) != 1) return 0;
    return 1;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s spec data < instances\n", argv[0]);
        return 2;
    }
    FILE *f = fopen(argv[1], "r");
    if (!f || fscanf(f, "%d %d %d %d %d", &n, &cols, &npat, &reflect, &pathmax) != 5 ||
        n > MAXN || npat > MAXPAT) {
        fprintf(stderr, "bad spec %s\n", argv[1]);
        return 2;
    }
    for (int t = 0; t < n; t++) pattern_of[t] = -1;
    for (int j = 0; j < npat; j++) {
        long long off;
        if (fscanf(f, "%d %lld", &pk[j], &off) != 2 || !read_ints(f, ptiles[j], pk[j])) return 2;
        poffset[j] = off;
        for (int i = 0; i < pk[j]; i++) pattern_of[ptiles[j][i]] = j;
    }
    if (!read_ints(f, sigma_, n) || !read_ints(f, tcell, n) || !read_ints(f, md, n * n)) {
        fprintf(stderr, "bad spec %s\n", argv[1]);
        return 2;
    }
    fclose(f);
    FILE *g = fopen(argv[2], "rb");
    if (!g) return 2;
    fseek(g, 0, SEEK_END);
    long size = ftell(g);
    fseek(g, 0, SEEK_SET);
    /* The tables on huge pages where the system allows it, as numpy allocates the numba
     * kernel's (it advises MADV_HUGEPAGE for large arrays): lookups at random in hundreds of
     * megabytes would otherwise add a TLB miss to most reads, a cost of the memory, not of the
     * search. */
    size_t huge = (size_t)1 << 21, cap = ((size_t)size + huge - 1) / huge * huge;
    data = aligned_alloc(huge, cap > 0 ? cap : huge);
    if (!data) return 2;
#ifdef MADV_HUGEPAGE
    madvise(data, cap, MADV_HUGEPAGE);
#endif
    if (fread(data, 1, size, g) != (size_t)size) return 2;
    fclose(g);
    int rows = n / cols;
    static const int dr[4] = {-1, 0, 0, 1}, dc[4] = {0, -1, 1, 0};
    for (int c = 0; c < n; c++) {
        nmoves[c] = 0;
        for (int d = 0; d < 4; d++) {
            int r = c / cols + dr[d], q = c % cols + dc[d];
            if (r >= 0 && r < rows && q >= 0 && q < cols) {
                movedir[c][nmoves[c]] = d;
                movecell[c][nmoves[c]++] = r * cols + q;
            }
        }
    }
    int id;
    while (scanf("%d", &id) == 1) {
        if (!read_ints(stdin, board, n)) return 2;
        int blank = 0;
        for (int c = 0; c < n; c++) {
            where_[board[c]] = c;
            if (board[c] == 0) blank = c;
        }
        for (int t = 0; t < n; t++) rwhere[sigma_[t]] = tcell[where_[t]];
        sum_ = rsum = 0;
        for (int j = 0; j < npat; j++) {
            vals[j] = pattern_value(j, where_);
            sum_ += vals[j];
            rvals[j] = pattern_value(j, rwhere);
            rsum += rvals[j];
        }
        int h0 = reflect && rsum > sum_ ? rsum : sum_;
        struct timespec t0, t1;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
        nodes = 0;
        threshold = h0;
        int solved = h0 == 0 && is_goal();
        int h = h0; /* the root's h, raised by pathmax, carries over (as in the kernel) */
        while (!solved) {
            nxt = 1LL << 40;
            solved = dfs(0, blank, 4, &h);
            if (!solved) threshold = nxt;
        }
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
        printf("%d %lld %.6f %lld\n", id, (long long)nodes,
               (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec), (long long)threshold);
        fflush(stdout);
    }
    return 0;
}
