// Stable keys for stored answers: the same state, questions, pinned model and target always give the same key, so a
// row that was already answered (in this run, an earlier one, or another file) is reused instead of billed again.
import { isVersionedId } from '../../contract';
import type { JsonValue, Questions, State } from '../../contract';
import { canonicalJson } from '../canonicalJson';

export { canonicalJson } from '../canonicalJson';

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);

/** Two hex digits per byte value. */
const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

const rotr = (x: number, n: number): number => (x >>> n) | (x << (32 - n));

/**
 * SHA-256 (FIPS 180-4) in plain JS, fed in pieces. `fork` copies the state, so a text's common beginning is hashed
 * once and each ending on its own copy: the keys of a run's rows share everything up to the state.
 */
export class Sha256 {
  private readonly h = new Uint32Array([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  ]);
  /** Bytes not yet hashed (less than a block). */
  private pending = new Uint8Array(64);
  private pendingLength = 0;
  private length = 0;
  private static readonly w = new Uint32Array(64);

  update(bytes: Uint8Array): this {
    this.length += bytes.length;
    let at = 0;
    if (this.pendingLength > 0) {
      const take = Math.min(64 - this.pendingLength, bytes.length);
      this.pending.set(bytes.subarray(0, take), this.pendingLength);
      this.pendingLength += take;
      at = take;
      if (this.pendingLength < 64) return this;
      this.block(this.pending, 0);
      this.pendingLength = 0;
    }
    for (; at + 64 <= bytes.length; at += 64) this.block(bytes, at);
    this.pending.set(bytes.subarray(at), 0);
    this.pendingLength = bytes.length - at;
    return this;
  }

  fork(): Sha256 {
    const copy = new Sha256();
    copy.h.set(this.h);
    copy.pending.set(this.pending);
    copy.pendingLength = this.pendingLength;
    copy.length = this.length;
    return copy;
  }

  /** The digest in hex; the hasher is spent afterwards. */
  hex(): string {
    const bitLength = this.length * 8;
    const tail = new Uint8Array(this.pendingLength + 9 > 64 ? 128 : 64);
    tail.set(this.pending.subarray(0, this.pendingLength));
    tail[this.pendingLength] = 0x80;
    const view = new DataView(tail.buffer);
    view.setUint32(tail.length - 8, Math.floor(bitLength / 2 ** 32));
    view.setUint32(tail.length - 4, bitLength >>> 0);
    for (let offset = 0; offset < tail.length; offset += 64) this.block(tail, offset);
    let out = '';
    for (const x of this.h)
      out += HEX[x >>> 24]! + HEX[(x >>> 16) & 0xff]! + HEX[(x >>> 8) & 0xff]! + HEX[x & 0xff]!;
    return out;
  }

  private block(bytes: Uint8Array, offset: number): void {
    const w = Sha256.w;
    const h = this.h;
    for (let i = 0; i < 16; i++) {
      const j = offset + i * 4;
      w[i] = ((bytes[j]! << 24) | (bytes[j + 1]! << 16) | (bytes[j + 2]! << 8) | bytes[j + 3]!) >>> 0;
    }
    for (let i = 16; i < 64; i++) {
      const a = w[i - 15]!;
      const b = w[i - 2]!;
      const s0 = rotr(a, 7) ^ rotr(a, 18) ^ (a >>> 3);
      const s1 = rotr(b, 17) ^ rotr(b, 19) ^ (b >>> 10);
      w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) >>> 0;
    }
    let a = h[0]!;
    let b = h[1]!;
    let c = h[2]!;
    let d = h[3]!;
    let e = h[4]!;
    let f = h[5]!;
    let g = h[6]!;
    let hh = h[7]!;
    for (let i = 0; i < 64; i++) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) >>> 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) >>> 0;
    }
    h[0] = (h[0]! + a) >>> 0;
    h[1] = (h[1]! + b) >>> 0;
    h[2] = (h[2]! + c) >>> 0;
    h[3] = (h[3]! + d) >>> 0;
    h[4] = (h[4]! + e) >>> 0;
    h[5] = (h[5]! + f) >>> 0;
    h[6] = (h[6]! + g) >>> 0;
    h[7] = (h[7]! + hh) >>> 0;
  }
}

/**
 * SHA-256 (FIPS 180-4) of bytes, in hex, in plain JS: the same on every page (Web Crypto's `subtle` exists only in
 * secure contexts, not on a page served over plain http from a LAN address) and synchronous.
 */
export const sha256HexSync = (bytes: Uint8Array): string => new Sha256().update(bytes).hex();

/** What identifies an answer. The target is part of it: the local reference and a real service answer differently. */
export interface AnswerIdentity {
  targetId: string;
  /** A versioned model id: the one that answered (the response's `model`) or the one pinned in the request. */
  model: string;
  state: State;
  questions: Questions;
  /** Tells apart requests the canonical JSON cannot (a repeat, another key order); absent for any other request. */
  tag?: string;
}

/** The text hashed for a key; versioned so a future change of the recipe cannot match old keys by accident. */
export const dedupText = (id: AnswerIdentity): string =>
  canonicalJson({
    v: 1,
    target: id.targetId,
    model: id.model,
    state: id.state as JsonValue,
    questions: id.questions,
    // Absent unless tagged, so every key made before tags existed stays the same.
    tag: id.tag ? id.tag : undefined,
  });

const utf8 = new TextEncoder();
/** The hash state after a key's common beginning, per questions object and model (the target comes after the state). */
const prefixes = new WeakMap<object, Map<string, Sha256>>();

/**
 * The dedup key of an answer: SHA-256 of the canonical identity, computed without Web Crypto. The canonical text
 * orders its keys (model, questions, state, tag, target, v), so everything before the state is the same for every row
 * of a run: that beginning is hashed once per questions object and model, and each row hashes only its state and
 * what follows. Equal to SHA-256 of dedupText (tests/unit/core/rows/plan.test.ts).
 */
export function dedupKeySync(id: AnswerIdentity): string {
  let byModel = prefixes.get(id.questions);
  if (!byModel) prefixes.set(id.questions, (byModel = new Map()));
  let prefix = byModel.get(id.model);
  if (!prefix) {
    const text = `{"model":${JSON.stringify(id.model)},"questions":${canonicalJson(id.questions)},"state":`;
    prefix = new Sha256().update(utf8.encode(text));
    byModel.set(id.model, prefix);
  }
  const rest =
    `${canonicalJson(id.state)}${id.tag ? `,"tag":${JSON.stringify(id.tag)}` : ''}` +
    `,"target":${JSON.stringify(id.targetId)},"v":1}`;
  return prefix.fork().update(utf8.encode(rest)).hex();
}

/** Each question of a set alone under its name, kept per set: the same object each time keeps its key prefix cached. */
const singles = new WeakMap<Questions, ReadonlyArray<readonly [string, Questions]>>();

/**
 * The identity of each question of an answer alone, in the questions' order: its key is exactly the key of a request
 * that asked only that question of the same state, model and target (and tag). An answer stored with these keys is
 * found again per question, so a variant that rewords one question sends only that one. The service's document says
 * a request returns "one typed answer for each question" and that many questions "may be sent in one request"
 * (evaluation-service.md sections 1, 2.3 and 4.1 rule 2); it does not say a question's answer may depend on the
 * others asked with it, and the reference judge answers each from the state alone, so an answer is taken as the
 * answer to its question whatever else was asked.
 */
export function questionIdentities(id: AnswerIdentity): Array<readonly [string, AnswerIdentity]> {
  let each = singles.get(id.questions);
  if (!each) {
    each = Object.entries(id.questions).map(([name, question]) => [name, { [name]: question }] as const);
    singles.set(id.questions, each);
  }
  return each.map(([name, questions]) => [name, { ...id, questions }] as const);
}

/** The dedup key of an answer, for callers that take a promise (the runner's `keyOf`). */
export const dedupKey = (id: AnswerIdentity): Promise<string> => Promise.resolve(dedupKeySync(id));

/**
 * The model under which stored answers may be looked up before sending, or null when the model is an alias: an alias
 * can move to a new version at any time, so only a pinned (versioned) id matches earlier answers.
 */
export const pinnedModel = (model: string): string | null =>
  isVersionedId(model.trim()) ? model.trim() : null;
