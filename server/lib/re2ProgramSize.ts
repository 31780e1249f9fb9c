// C++ RE2's `RE2::ProgramSize()` — what Envoy compares with runtime `re2.max_program_size.error_level`
// (source/common/common/regex.cc, CompiledGoogleReMatcher) — computed in JavaScript.
//
// re2js compiles with Go's compiler (regexp/syntax/compile.go), whose instruction graph has the same shape as
// C++ RE2's (re2/compile.cc: same Alt/Capture/EmptyWidth/Match fragments; a nullable star as (x+)?) except
// that Go matches runes where C++ matches UTF-8 bytes. So the size is computed by rebuilding C++'s graph from
// Go's program, then running C++'s post-passes:
//  1. RE2::Init's RequiredPrefix (re2/regexp.cc): `^literal...` compiles without the anchors and the literal.
//  2. Compiler::Compile's IsAnchorStart / IsAnchorEnd: a leading `^` / trailing `$` (through captures) is
//     dropped; an unanchored program gets the `.*?` loop (DotStar: Alt + ByteRange 00-ff).
//  3. Each rune instruction becomes C++'s UTF-8 byte-range automaton (Compiler::AddRuneRangeUTF8,
//     Add_80_10ffff, the suffix cache and AddSuffixRecursive's trie, the FoldsASCII optimization; a literal
//     rune is Compiler::Literal's byte chain).
//  4. Prog::Optimize (Nop elimination, AltMatch) and Prog::Flatten (MarkSuccessors, MarkDominator, EmitList);
//     the flattened instruction count is ProgramSize.
// Differences that remain: instruction ids are allocated in Go's order, and Flatten's dominator pass visits
// roots by id, so a program whose roots depend on that order can differ by a few instructions; the
// IsAnchorStart/End depth limit (4) is not applied. The tests pin the sizes RE2's compile_test.cc prints
// and Envoy's regex_test.cc thresholds.
import { RE2JS } from 're2js';

// re2js's Inst opcodes (Go's InstOp numbering in RE2/J).
const ALT = 1;
const ALT_MATCH = 2;
const CAPTURE = 3;
const EMPTY_WIDTH = 4;
const FAIL = 5;
const MATCH = 6;
const NOP = 7;
const RUNE = 8;
const RUNE1 = 9;
const RUNE_ANY = 10;
const RUNE_ANY_NOT_NL = 11;
const EMPTY_BEGIN_TEXT = 4;
const EMPTY_END_TEXT = 8;
const FOLD_CASE = 1;

interface GoInst {
  op: number;
  out: number;
  arg: number;
  runes: Int32Array;
}

type Op = 'alt' | 'altmatch' | 'byte' | 'cap' | 'empty' | 'nop' | 'match' | 'fail';
interface CInst {
  op: Op;
  out: number;
  out1: number;
  lo: number;
  hi: number;
  fold: boolean;
}

/**
 * Instructions built before the computation stops (a 1024-character regex can compile to millions). Most built
 * instructions are leaves that Flatten emits at least once (the rest are Alts joining two of them, entry Nops
 * and dropped trie heads), so a graph this large is taken to flatten to at least a quarter of it: more than
 * istio-proxy's error level (32768). A bound by construction, not an exact size: reported as `atLeast`.
 */
export const BUILD_BUDGET = 4 * 32_768 + 4;

export interface Re2ProgramSize {
  size: number;
  /** True when the build stopped at BUILD_BUDGET: the program is larger than `size`. */
  atLeast: boolean;
}

/** C++ RE2's ProgramSize for `pattern` (Envoy's default options: UTF-8, Perl syntax); undefined when it does not parse. */
export function re2ProgramSize(pattern: string): number | undefined {
  const r = re2Program(pattern);
  return r && !r.atLeast ? r.size : undefined;
}

/** re2ProgramSize with the bound: work stops at BUILD_BUDGET instructions (a 1024-character regex can compile to millions). */
export function re2Program(pattern: string): Re2ProgramSize | undefined {
  let prog: { inst: GoInst[]; start: number };
  try {
    prog = RE2JS.compile(pattern).re2().prog as { inst: GoInst[]; start: number };
  } catch {
    return undefined;
  }
  if (prog.inst.length > BUILD_BUDGET) return { size: BUILD_BUDGET / 4, atLeast: true };
  try {
    return { size: new Builder(prog.inst).size(prog.start), atLeast: false };
  } catch (e) {
    if (e === OVER_BUDGET) return { size: BUILD_BUDGET / 4, atLeast: true };
    throw e;
  }
}

const OVER_BUDGET = new Error('RE2 program over the build budget');

const preds = (insts: readonly GoInst[]): number[][] => {
  const p: number[][] = insts.map(() => []);
  insts.forEach((ins, i) => {
    if (ins.op === FAIL || ins.op === MATCH) return;
    p[ins.out]?.push(i);
    if (ins.op === ALT || ins.op === ALT_MATCH) p[ins.arg]?.push(i);
  });
  return p;
};

const isLiteralRune = (ins: GoInst | undefined, fold: number): boolean =>
  ins !== undefined &&
  (ins.op === RUNE1 || (ins.op === RUNE && ins.runes.length === 1)) &&
  (ins.op === RUNE1 ? 0 : ins.arg & FOLD_CASE) === fold;

class Builder {
  private readonly c: CInst[] = [];
  private readonly entry: number[];
  private runeCache = new Map<number, number>();
  private rangeBegin = 0;
  private rangeEnds = new Set<number>();

  constructor(private readonly g: readonly GoInst[]) {
    this.entry = g.map(() => -1);
  }

  size(goStart: number): number {
    let start = goStart;
    const pr = preds(this.g);
    const skip = new Set<number>();
    let anchorStart = false;
    // 1. RequiredPrefix: top-level ^ anchors, then a literal (one fold mode), then the rest.
    let i = start;
    while (this.g[i]?.op === EMPTY_WIDTH && this.g[i]!.arg === EMPTY_BEGIN_TEXT) i = this.g[i]!.out;
    const first = this.g[i]!;
    if (i !== start && first && isLiteralRune(first, first.op === RUNE1 ? 0 : first.arg & FOLD_CASE)) {
      const fold = first.op === RUNE1 ? 0 : first.arg & FOLD_CASE;
      let j = first.out;
      while (isLiteralRune(this.g[j]!, fold) && pr[j]!.length === 1) j = this.g[j]!.out;
      start = j;
    } else {
      // 2. IsAnchorStart: the first ^ reached through opening captures.
      let k = start;
      while (this.g[k]?.op === CAPTURE && this.g[k]!.arg % 2 === 0) k = this.g[k]!.out;
      if (this.g[k]?.op === EMPTY_WIDTH && this.g[k]!.arg === EMPTY_BEGIN_TEXT) {
        skip.add(k);
        anchorStart = true;
      }
    }
    // IsAnchorEnd: the last $ whose only way on is closing captures to Match.
    const match = this.g.findIndex((x) => x.op === MATCH);
    let k = match;
    while (k >= 0 && pr[k]!.length === 1) {
      const pk = pr[k]![0]!;
      const p = this.g[pk]!;
      if (p.op === CAPTURE && p.arg % 2 === 1) k = pk;
      else {
        if (p.op === EMPTY_WIDTH && p.arg === EMPTY_END_TEXT) skip.add(pk);
        break;
      }
    }
    this.c.push(inst('fail'));
    const s = this.translate(start, skip);
    let su = s;
    if (s !== 0 && !anchorStart) {
      // DotStar(): Star(ByteRange(0x00, 0xff), nongreedy) before the program.
      const alt = this.alloc(inst('alt'));
      const br = this.alloc(byte(0, 0xff, false, alt));
      this.c[alt]!.out = s;
      this.c[alt]!.out1 = br;
      su = alt;
    }
    if (s === 0 && su === 0) return 1;
    const st = this.optimize(s);
    return flattenSize(this.c, su === s ? st : su, st);
  }

  private alloc(i: CInst): number {
    if (this.c.length >= BUILD_BUDGET) throw OVER_BUDGET;
    this.c.push(i);
    return this.c.length - 1;
  }

  /** The C++ entry instruction for Go instruction `gi` (iteratively, so deep programs do not recurse). */
  private translate(root: number, skip: ReadonlySet<number>): number {
    const resolve = (gi: number): number => {
      let x = gi;
      for (let n = 0; skip.has(x) && n < skip.size; n++) x = this.g[x]!.out;
      return x;
    };
    // Allocate an entry Nop per Go instruction first (Prog::Optimize removes them), then fill each in.
    const work = [resolve(root)];
    const order: number[] = [];
    while (work.length) {
      const gi = work.pop() as number;
      if (this.entry[gi]! !== -1) continue;
      const ins = this.g[gi]!;
      if (ins.op === FAIL) {
        this.entry[gi] = 0;
        continue;
      }
      this.entry[gi] = this.alloc(inst('nop'));
      order.push(gi);
      if (ins.op !== MATCH) work.push(resolve(ins.out));
      if (ins.op === ALT || ins.op === ALT_MATCH) work.push(resolve(ins.arg));
    }
    for (const gi of order) {
      const ins = this.g[gi]!;
      const e = this.entry[gi]!;
      const out = ins.op === MATCH ? 0 : this.entry[resolve(ins.out)]!;
      switch (ins.op) {
        case ALT:
        case ALT_MATCH:
          this.c[e] = { ...inst('alt'), out, out1: this.entry[resolve(ins.arg)]! };
          break;
        case CAPTURE:
          this.c[e] = { ...inst('cap'), out };
          break;
        case EMPTY_WIDTH:
          this.c[e] = { ...inst('empty'), out };
          break;
        case MATCH:
          this.c[e] = inst('match');
          break;
        case NOP:
          this.c[e]!.out = out;
          break;
        default:
          this.c[e]!.out = this.runeInst(ins, out);
      }
    }
    return this.entry[resolve(root)]!;
  }

  private runeInst(ins: GoInst, next: number): number {
    if (ins.op === RUNE1 || (ins.op === RUNE && ins.runes.length === 1 && !(ins.arg & FOLD_CASE)))
      return this.literal(ins.runes[0]!, false, next);
    if (ins.op === RUNE && ins.runes.length === 1) {
      const r = ins.runes[0]!;
      const orbit = foldOrbit(r);
      // Regexp::ParseState::PushRegexp: an A/a pair stays a literal with FoldCase (one ByteRange).
      if (orbit.length === 4 && orbit[0]! >= 0x41 && orbit[0]! <= 0x5a && orbit[2]! === orbit[0]! + 0x20)
        return this.literal(orbit[2]!, true, next);
      return this.charClass(orbit, next);
    }
    if (ins.op === RUNE_ANY) return this.charClass([0, 0x10ffff], next);
    if (ins.op === RUNE_ANY_NOT_NL) return this.charClass([0, 9, 11, 0x10ffff], next);
    return this.charClass(Array.from(ins.runes), next);
  }

  /** Compiler::Literal in UTF-8: one ByteRange for ASCII, else the byte chain of the rune. */
  private literal(r: number, fold: boolean, next: number): number {
    if (r < 0x80) return this.alloc(byte(r, r, fold, next));
    const bytes = utf8(r);
    let out = next;
    for (let i = bytes.length - 1; i >= 0; i--) out = this.alloc(byte(bytes[i]!, bytes[i]!, false, out));
    return out;
  }

  /** kRegexpCharClass in Compiler::PostVisit: BeginRange, AddRuneRange per range (FoldsASCII), EndRange. */
  private charClass(ranges: number[], next: number): number {
    this.runeCache = new Map();
    this.rangeBegin = 0;
    this.rangeEnds = new Set();
    const has = (r: number) => {
      for (let i = 0; i < ranges.length; i += 2) if (ranges[i]! <= r && r <= ranges[i + 1]!) return true;
      return false;
    };
    let foldascii = true;
    for (let r = 0x41; r <= 0x5a && foldascii; r++) if (has(r) !== has(r + 0x20)) foldascii = false;
    for (let i = 0; i < ranges.length; i += 2) {
      const lo = ranges[i]!;
      const hi = ranges[i + 1]!;
      if (foldascii && 0x41 <= lo && hi <= 0x5a) continue;
      let fold = foldascii;
      if ((lo <= 0x41 && 0x7a <= hi) || hi < 0x41 || 0x7a < lo || (0x5a < lo && hi < 0x61)) fold = false;
      this.addRuneRange(lo, hi, fold);
    }
    for (const id of this.rangeEnds) this.c[id]!.out = next;
    return this.rangeBegin;
  }

  private uncached(lo: number, hi: number, fold: boolean, next: number): number {
    const id = this.alloc(byte(lo, hi, fold, next));
    if (next === 0) this.rangeEnds.add(id);
    return id;
  }

  private cached(lo: number, hi: number, fold: boolean, next: number): number {
    const key = cacheKey(lo, hi, fold, next);
    const hit = this.runeCache.get(key);
    if (hit !== undefined) return hit;
    const id = this.uncached(lo, hi, fold, next);
    this.runeCache.set(key, id);
    return id;
  }

  private isCached(id: number): boolean {
    const b = this.c[id]!;
    return this.runeCache.get(cacheKey(b.lo, b.hi, b.fold, b.out)) === id;
  }

  private addSuffix(id: number): void {
    if (this.rangeBegin === 0) this.rangeBegin = id;
    else this.rangeBegin = this.addSuffixRecursive(this.rangeBegin, id);
  }

  private addSuffixRecursive(root: number, id: number): number {
    const f = this.findByteRange(root, id);
    if (f === undefined) {
      const alt = this.alloc({ op: 'alt', out: root, out1: id, lo: 0, hi: 0, fold: false });
      return alt;
    }
    let br: number;
    if (f.via === 'self') br = root;
    else br = f.via === 'out1' ? this.c[f.at]!.out1 : this.c[f.at]!.out;
    if (this.isCached(br)) {
      const b = this.c[br]!;
      const clone = this.alloc(byte(b.lo, b.hi, b.fold, b.out));
      if (this.rangeEnds.has(br)) this.rangeEnds.add(clone);
      br = clone;
      if (f.via === 'self') root = br;
      else if (f.via === 'out1') this.c[f.at]!.out1 = br;
      else this.c[f.at]!.out = br;
    }
    const out = this.c[id]!.out;
    // The head `id` is dropped (C++ frees it); it is simply left unreachable here.
    const merged = this.addSuffixRecursive(this.c[br]!.out, out);
    this.c[br]!.out = merged;
    return root;
  }

  private findByteRange(root: number, id: number): { at: number; via: 'self' | 'out' | 'out1' } | undefined {
    const eq = (a: number, b: number) =>
      this.c[a]!.lo === this.c[b]!.lo && this.c[a]!.hi === this.c[b]!.hi && this.c[a]!.fold === this.c[b]!.fold;
    if (this.c[root]!.op === 'byte') return eq(root, id) ? { at: root, via: 'self' } : undefined;
    if (this.c[root]!.op === 'alt') return eq(this.c[root]!.out1, id) ? { at: root, via: 'out1' } : undefined;
    return undefined;
  }

  private add80to10ffff(): void {
    const cont1 = this.uncached(0x80, 0xbf, false, 0);
    this.addSuffix(this.uncached(0xc2, 0xdf, false, cont1));
    const cont2 = this.uncached(0x80, 0xbf, false, cont1);
    this.addSuffix(this.uncached(0xe0, 0xef, false, cont2));
    const cont3 = this.uncached(0x80, 0xbf, false, cont2);
    this.addSuffix(this.uncached(0xf0, 0xf4, false, cont3));
  }

  private addRuneRange(lo: number, hi: number, fold: boolean): void {
    if (lo > hi) return;
    if (lo === 0x80 && hi === 0x10ffff) return this.add80to10ffff();
    for (let i = 1; i < 4; i++) {
      const max = MAX_RUNE[i]!;
      if (lo <= max && max < hi) {
        this.addRuneRange(lo, max, fold);
        this.addRuneRange(max + 1, hi, fold);
        return;
      }
    }
    if (hi < 0x80) return this.addSuffix(this.uncached(lo, hi, fold, 0));
    for (let i = 1; i < 4; i++) {
      const m = (1 << (6 * i)) - 1;
      if ((lo & ~m) !== (hi & ~m)) {
        if ((lo & m) !== 0) {
          this.addRuneRange(lo, lo | m, fold);
          this.addRuneRange((lo | m) + 1, hi, fold);
          return;
        }
        if ((hi & m) !== m) {
          this.addRuneRange(lo, (hi & ~m) - 1, fold);
          this.addRuneRange(hi & ~m, hi, fold);
          return;
        }
      }
    }
    const ulo = utf8(lo);
    const uhi = utf8(hi);
    const n = ulo.length;
    let id = 0;
    for (let i = n - 1; i >= 0; i--) {
      // Forward UTF-8: cache the last continuation byte, and any other non-leading byte range (XX-YY).
      if (i === n - 1 || (ulo[i]! < uhi[i]! && i !== 0)) id = this.cached(ulo[i]!, uhi[i]!, false, id);
      else id = this.uncached(ulo[i]!, uhi[i]!, false, id);
    }
    this.addSuffix(id);
  }

  /** Prog::Optimize over the instructions reachable from start: Nop elimination, then AltMatch. Returns start. */
  private optimize(start: number): number {
    const c = this.c;
    const skipNops = (j0: number) => {
      let j = j0;
      while (j !== 0 && c[j]!.op === 'nop') j = c[j]!.out;
      return j;
    };
    let s = start;
    if (c[s]!.op === 'nop') s = skipNops(s);
    const walk = (visit: (id: number) => void) => {
      const seen = new Set<number>([s]);
      const q = [s];
      for (let qi = 0; qi < q.length; qi++) {
        visit(q[qi]!);
        const ip = c[q[qi]!]!;
        const next = ip.op === 'match' || ip.op === 'fail' ? [] : ip.op === 'alt' ? [ip.out, ip.out1] : [ip.out];
        for (const n of next) if (!seen.has(n)) seen.add(n), q.push(n);
      }
    };
    walk((id) => {
      const ip = c[id]!;
      if (ip.op === 'match' || ip.op === 'fail') return;
      ip.out = skipNops(ip.out);
      if (ip.op === 'alt') ip.out1 = skipNops(ip.out1);
    });
    const anyByteTo = (j: CInst, id: number) => j.op === 'byte' && j.out === id && j.lo === 0 && j.hi === 0xff;
    const isMatch = (j: CInst) => j.op === 'match';
    walk((id) => {
      const ip = c[id]!;
      if (ip.op !== 'alt') return;
      if ((anyByteTo(c[ip.out]!, id) && isMatch(c[ip.out1]!)) || (isMatch(c[ip.out]!) && anyByteTo(c[ip.out1]!, id))) ip.op = 'altmatch';
    });
    return s;
  }
}

const MAX_RUNE = [0, 0x7f, 0x7ff, 0xffff];

/** Compiler's MakeRuneCacheKey: next, lo, hi, foldcase (a number: next < 2^32 fits below 2^53). */
const cacheKey = (lo: number, hi: number, fold: boolean, next: number): number => next * 2 ** 17 + lo * 512 + hi * 2 + (fold ? 1 : 0);

const inst = (op: Op): CInst => ({ op, out: 0, out1: 0, lo: 0, hi: 0, fold: false });
const byte = (lo: number, hi: number, fold: boolean, out: number): CInst => ({ op: 'byte', out, out1: 0, lo, hi, fold });

function utf8(r: number): number[] {
  if (r < 0x80) return [r];
  if (r < 0x800) return [0xc0 | (r >> 6), 0x80 | (r & 0x3f)];
  if (r < 0x10000) return [0xe0 | (r >> 12), 0x80 | ((r >> 6) & 0x3f), 0x80 | (r & 0x3f)];
  return [0xf0 | (r >> 18), 0x80 | ((r >> 12) & 0x3f), 0x80 | ((r >> 6) & 0x3f), 0x80 | (r & 0x3f)];
}

/** The simple case-folding orbit of `r` as sorted ranges (Go's parser expands `(?i)[r]` to it). */
function foldOrbit(r: number): number[] {
  const hex = r.toString(16);
  const p = RE2JS.compile(`(?i)[\\x{${hex}}\\x{0}]`).re2().prog as { inst: GoInst[] };
  const cls = p.inst.find((x) => x.op === RUNE);
  if (!cls) return [r, r];
  return Array.from(cls.runes).slice(2);
}

/** Prog::Flatten's instruction count: one list per root (MarkSuccessors + MarkDominator), EmitList's entries. */
function flattenSize(c: readonly CInst[], startUnanchored: number, start: number): number {
  // rootmap as Prog::Flatten keeps it: root ids in the order they were marked.
  const isRoot = new Uint8Array(c.length);
  const roots: number[] = [];
  const addRoot = (id: number) => {
    if (!isRoot[id]!) {
      isRoot[id] = 1;
      roots.push(id);
    }
  };
  addRoot(0);
  addRoot(startUnanchored);
  addRoot(start);
  const predmap: (number[] | undefined)[] = new Array(c.length);
  const isAlt = (op: Op) => op === 'alt' || op === 'altmatch';
  const addPred = (out: number, id: number) => {
    const l = predmap[out]!;
    if (l) l.push(id);
    else predmap[out] = [id];
  };
  // One "reachable" set reused by stamping (Prog::Flatten reuses its SparseSet the same way).
  const mark = new Int32Array(c.length);
  let stamp = 0;
  const stk: number[] = [];
  // MarkSuccessors.
  stamp++;
  stk.push(startUnanchored);
  while (stk.length) {
    let id = stk.pop() as number;
    for (;;) {
      if (mark[id]! === stamp) break;
      mark[id] = stamp;
      const ip = c[id]!;
      if (isAlt(ip.op)) {
        addPred(ip.out, id);
        addPred(ip.out1, id);
        stk.push(ip.out1);
        id = ip.out;
      } else if (ip.op === 'byte' || ip.op === 'cap' || ip.op === 'empty') {
        addRoot(ip.out);
        id = ip.out;
      } else if (ip.op === 'nop') id = ip.out;
      else break;
    }
  }
  // MarkDominator, over the roots sorted by id, highest first, skipping the lowest (Fail).
  const sorted = [...roots].sort((a, b) => a - b);
  const reached: number[] = [];
  for (let i = sorted.length - 1; i > 0; i--) {
    const root = sorted[i]!;
    if (root === startUnanchored || root === start) continue;
    stamp++;
    reached.length = 0;
    stk.push(root);
    while (stk.length) {
      let id = stk.pop() as number;
      for (;;) {
        if (mark[id]! === stamp) break;
        mark[id] = stamp;
        reached.push(id);
        if (id !== root && isRoot[id]!) break;
        const ip = c[id]!;
        if (isAlt(ip.op)) {
          stk.push(ip.out1);
          id = ip.out;
        } else if (ip.op === 'nop') id = ip.out;
        else break;
      }
    }
    for (const id of reached) for (const pred of predmap[id]! ?? []) if (mark[pred]! !== stamp) addRoot(id);
  }
  // EmitList per root: a leaf per ByteRange/Capture/EmptyWidth/Match/Fail, an AltMatch marker, a Nop per other root reached.
  let size = 0;
  for (const root of roots) {
    stamp++;
    stk.push(root);
    while (stk.length) {
      let id = stk.pop() as number;
      for (;;) {
        if (mark[id]! === stamp) break;
        mark[id] = stamp;
        if (id !== root && isRoot[id]!) {
          size++;
          break;
        }
        const ip = c[id]!;
        if (isAlt(ip.op)) {
          if (ip.op === 'altmatch') size++;
          stk.push(ip.out1);
          id = ip.out;
        } else if (ip.op === 'nop') id = ip.out;
        else {
          size++;
          break;
        }
      }
    }
  }
  return size;
}
