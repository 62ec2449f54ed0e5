// Writes a tiny llama-architecture GGUF file (GGUF v3, F32 weights, byte-level SentencePiece vocabulary) so the model
// judge's tests run the real llama.cpp engine without downloading weights. Its answers are meaningless by design; the
// layout follows ggml's docs/gguf.md (header, key/value metadata, tensor infos, aligned tensor data).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Shape of the generated model; the defaults give a file of about 330 kB. */
export interface TinyModelOptions {
  embedding?: number;
  layers?: number;
  heads?: number;
  feedForward?: number;
  /** The context the model declares it was trained on (llama.context_length). */
  contextLength?: number;
  /** Seed of the weights: a different seed gives a different file (and a different content hash). */
  seed?: number;
  name?: string;
}

const GGUF_MAGIC = 0x46554747; // "GGUF" read as a little-endian u32
const GGUF_VERSION = 3;
const ALIGNMENT = 32; // general.alignment's default

// Metadata value types (gguf.md, gguf_metadata_value_type).
const T_UINT32 = 4;
const T_INT32 = 5;
const T_FLOAT32 = 6;
const T_BOOL = 7;
const T_STRING = 8;
const T_ARRAY = 9;

// SentencePiece token types (llama.cpp's llama_token_type).
const TOKEN_NORMAL = 1;
const TOKEN_UNKNOWN = 2;
const TOKEN_CONTROL = 3;
const TOKEN_BYTE = 6;

type MetaValue =
  | { type: 'u32'; value: number }
  | { type: 'f32'; value: number }
  | { type: 'bool'; value: boolean }
  | { type: 'string'; value: string }
  | { type: 'strings'; value: string[] }
  | { type: 'f32s'; value: number[] }
  | { type: 'i32s'; value: number[] };

class Writer {
  private chunks: Buffer[] = [];
  length = 0;
  private push(buf: Buffer): void {
    this.chunks.push(buf);
    this.length += buf.length;
  }
  u32(v: number): void {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(v);
    this.push(b);
  }
  i32(v: number): void {
    const b = Buffer.alloc(4);
    b.writeInt32LE(v);
    this.push(b);
  }
  u64(v: number): void {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(v));
    this.push(b);
  }
  f32(v: number): void {
    const b = Buffer.alloc(4);
    b.writeFloatLE(v);
    this.push(b);
  }
  bool(v: boolean): void {
    this.push(Buffer.from([v ? 1 : 0]));
  }
  str(s: string): void {
    const b = Buffer.from(s, 'utf8');
    this.u64(b.length);
    this.push(b);
  }
  raw(b: Buffer): void {
    this.push(b);
  }
  padTo(alignment: number): void {
    const rest = this.length % alignment;
    if (rest !== 0) this.push(Buffer.alloc(alignment - rest));
  }
  toBuffer(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

function writeMeta(w: Writer, key: string, m: MetaValue): void {
  w.str(key);
  switch (m.type) {
    case 'u32':
      w.u32(T_UINT32);
      w.u32(m.value);
      return;
    case 'f32':
      w.u32(T_FLOAT32);
      w.f32(m.value);
      return;
    case 'bool':
      w.u32(T_BOOL);
      w.bool(m.value);
      return;
    case 'string':
      w.u32(T_STRING);
      w.str(m.value);
      return;
    case 'strings':
      w.u32(T_ARRAY);
      w.u32(T_STRING);
      w.u64(m.value.length);
      for (const s of m.value) w.str(s);
      return;
    case 'f32s':
      w.u32(T_ARRAY);
      w.u32(T_FLOAT32);
      w.u64(m.value.length);
      for (const v of m.value) w.f32(v);
      return;
    case 'i32s':
      w.u32(T_ARRAY);
      w.u32(T_INT32);
      w.u64(m.value.length);
      for (const v of m.value) w.i32(v);
      return;
  }
}

/** mulberry32: a small seeded generator, so a seed always writes the same bytes. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The vocabulary: three control tokens, one token per byte, and printable ASCII spelt as normal pieces. */
function vocabulary(): { tokens: string[]; scores: number[]; types: number[] } {
  const tokens = ['<unk>', '<s>', '</s>'];
  const types = [TOKEN_UNKNOWN, TOKEN_CONTROL, TOKEN_CONTROL];
  for (let b = 0; b < 256; b++) {
    tokens.push(`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`);
    types.push(TOKEN_BYTE);
  }
  // "▁" is SentencePiece's space; with it and the printable characters as pieces, text tokenizes one character
  // to one token (the byte tokens cover everything else), which keeps the test model's context small.
  tokens.push('\u2581');
  types.push(TOKEN_NORMAL);
  for (let c = 0x21; c < 0x7f; c++) {
    tokens.push(String.fromCharCode(c));
    types.push(TOKEN_NORMAL);
  }
  const scores = tokens.map((_, i) => -i);
  return { tokens, scores, types };
}

/** The GGUF file's bytes. */
export function tinyGgufBytes(options: TinyModelOptions = {}): Buffer {
  const nEmbd = options.embedding ?? 64;
  const nLayer = options.layers ?? 1;
  const nHead = options.heads ?? 4;
  const nFf = options.feedForward ?? 128;
  const ctx = options.contextLength ?? 8192;
  const rand = random(options.seed ?? 1);
  const vocab = vocabulary();
  const nVocab = vocab.tokens.length;

  const meta: [string, MetaValue][] = [
    ['general.architecture', { type: 'string', value: 'llama' }],
    ['general.name', { type: 'string', value: options.name ?? 'tiny-test-llama' }],
    ['general.alignment', { type: 'u32', value: ALIGNMENT }],
    ['general.file_type', { type: 'u32', value: 0 }], // all F32
    ['llama.context_length', { type: 'u32', value: ctx }],
    ['llama.embedding_length', { type: 'u32', value: nEmbd }],
    ['llama.block_count', { type: 'u32', value: nLayer }],
    ['llama.feed_forward_length', { type: 'u32', value: nFf }],
    ['llama.attention.head_count', { type: 'u32', value: nHead }],
    ['llama.attention.head_count_kv', { type: 'u32', value: nHead }],
    ['llama.attention.layer_norm_rms_epsilon', { type: 'f32', value: 1e-5 }],
    ['llama.rope.dimension_count', { type: 'u32', value: nEmbd / nHead }],
    ['llama.vocab_size', { type: 'u32', value: nVocab }],
    ['tokenizer.ggml.model', { type: 'string', value: 'llama' }],
    ['tokenizer.ggml.tokens', { type: 'strings', value: vocab.tokens }],
    ['tokenizer.ggml.scores', { type: 'f32s', value: vocab.scores }],
    ['tokenizer.ggml.token_type', { type: 'i32s', value: vocab.types }],
    ['tokenizer.ggml.unknown_token_id', { type: 'u32', value: 0 }],
    ['tokenizer.ggml.bos_token_id', { type: 'u32', value: 1 }],
    ['tokenizer.ggml.eos_token_id', { type: 'u32', value: 2 }],
    ['tokenizer.ggml.add_bos_token', { type: 'bool', value: true }],
    ['tokenizer.ggml.add_eos_token', { type: 'bool', value: false }],
  ];

  // ggml dims: ne0 (the row length) first.
  const tensors: { name: string; dims: number[]; norm?: boolean }[] = [
    { name: 'token_embd.weight', dims: [nEmbd, nVocab] },
    { name: 'output_norm.weight', dims: [nEmbd], norm: true },
    { name: 'output.weight', dims: [nEmbd, nVocab] },
  ];
  for (let l = 0; l < nLayer; l++) {
    tensors.push(
      { name: `blk.${l}.attn_norm.weight`, dims: [nEmbd], norm: true },
      { name: `blk.${l}.attn_q.weight`, dims: [nEmbd, nEmbd] },
      { name: `blk.${l}.attn_k.weight`, dims: [nEmbd, nEmbd] },
      { name: `blk.${l}.attn_v.weight`, dims: [nEmbd, nEmbd] },
      { name: `blk.${l}.attn_output.weight`, dims: [nEmbd, nEmbd] },
      { name: `blk.${l}.ffn_norm.weight`, dims: [nEmbd], norm: true },
      { name: `blk.${l}.ffn_gate.weight`, dims: [nEmbd, nFf] },
      { name: `blk.${l}.ffn_down.weight`, dims: [nFf, nEmbd] },
      { name: `blk.${l}.ffn_up.weight`, dims: [nEmbd, nFf] },
    );
  }

  const w = new Writer();
  w.u32(GGUF_MAGIC);
  w.u32(GGUF_VERSION);
  w.u64(tensors.length);
  w.u64(meta.length);
  for (const [key, value] of meta) writeMeta(w, key, value);

  const datas: Buffer[] = [];
  let offset = 0;
  for (const t of tensors) {
    const count = t.dims.reduce((a, b) => a * b, 1);
    const data = Buffer.alloc(count * 4);
    // Norm weights at 1 keep activations sane; the rest is uniform noise scaled like a small initialisation.
    const scale = 1 / Math.sqrt(t.dims[0] ?? 1);
    for (let i = 0; i < count; i++) data.writeFloatLE(t.norm ? 1 : (rand() * 2 - 1) * scale, i * 4);
    w.str(t.name);
    w.u32(t.dims.length);
    for (const d of t.dims) w.u64(d);
    w.u32(0); // GGML_TYPE_F32
    w.u64(offset);
    const padded = Math.ceil(data.length / ALIGNMENT) * ALIGNMENT;
    datas.push(Buffer.concat([data, Buffer.alloc(padded - data.length)]));
    offset += padded;
  }
  w.padTo(ALIGNMENT);
  for (const d of datas) w.raw(d);
  return w.toBuffer();
}

/** Writes the tiny model into a fresh temporary folder and returns its path. */
export function writeTinyGguf(options: TinyModelOptions = {}, fileName = 'tiny-test-llama.gguf'): string {
  const dir = mkdtempSync(join(tmpdir(), 'tiny-gguf-'));
  const path = join(dir, fileName);
  writeFileSync(path, tinyGgufBytes(options));
  return path;
}
