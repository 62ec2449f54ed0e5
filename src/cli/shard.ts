// `--shard i/n`: which rows of a file this process sends. A row belongs to a shard by a hash of its identity (the id
// column's value, or the content of its state when it has none), never by its line, so an edited or re-sorted file
// keeps each row in the same shard; the same SHA-256 and canonical JSON as the stored-answer keys (core/rows/dedup).
import { createHash } from 'node:crypto';
import type { JsonValue } from '../contract';
import { canonicalJson } from '../core/rows/dedup';
import type { RowMapping } from '../core/rows/mapping';
import { mapRow, rowId } from '../core/rows/mapping';
import type { SourceRow } from '../core/rows/parse';
import { InputError } from './inputs';

/** One shard of n, counted from 1 (the form of `--shard 2/4`). */
export interface Shard {
  index: number;
  count: number;
}

/** The variables `--shard env` reads: Kubernetes Indexed Jobs set the index (from 0); the total is the job's. */
export const SHARD_INDEX_VARS = ['JOB_COMPLETION_INDEX', 'SHARD_INDEX'] as const;
export const SHARD_TOTAL_VAR = 'SHARD_TOTAL';

const whole = (text: string | undefined): number | null =>
  text !== undefined && /^\s*\d+\s*$/.test(text) ? Number(text) : null;

/**
 * Reads `--shard`: `i/n` (1 ≤ i ≤ n), or `env`: the index from JOB_COMPLETION_INDEX (or SHARD_INDEX), counted from 0
 * as Kubernetes counts it, and the total from `--shard-total` or SHARD_TOTAL.
 */
export function parseShard(spec: string, env: NodeJS.ProcessEnv, total?: string): Shard {
  if (spec.trim() === 'env') {
    const name = SHARD_INDEX_VARS.find((v) => env[v] !== undefined && env[v] !== '');
    const from0 = name ? whole(env[name]) : null;
    if (name === undefined)
      throw new InputError(
        `--shard env reads the shard from JOB_COMPLETION_INDEX (set by a Kubernetes Indexed Job) or SHARD_INDEX, counted from 0; neither is set.`,
      );
    if (from0 === null) throw new InputError(`--shard env: ${name} is "${env[name]}", not a whole number.`);
    const countText = total ?? env[SHARD_TOTAL_VAR];
    const count = whole(countText);
    if (countText === undefined || countText === '')
      throw new InputError(
        `--shard env needs the number of shards: pass --shard-total <n> or set ${SHARD_TOTAL_VAR} (the Job's completions).`,
      );
    if (count === null || count < 1)
      throw new InputError(`The number of shards must be a whole number from 1; it is "${countText}".`);
    if (from0 >= count)
      throw new InputError(
        `--shard env: ${name} is ${from0}, but there are ${count} shards (indexes 0 to ${count - 1}).`,
      );
    return { index: from0 + 1, count };
  }
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(spec);
  if (!match)
    throw new InputError(
      `--shard ${spec} is not a shard: write i/n (for example 2/4, counted from 1), or env to read JOB_COMPLETION_INDEX.`,
    );
  const index = Number(match[1]);
  const count = Number(match[2]);
  if (count < 1 || index < 1 || index > count)
    throw new InputError(`--shard ${spec}: the shard must be from 1 to ${Math.max(1, count)}.`);
  return { index, count };
}

/**
 * What places a row in a shard: its id when the mapping names an id column and the row has a value there, else the
 * canonical JSON of its state (of the whole row when it cannot be mapped, so its problem is reported by one shard).
 */
export function shardIdentity(row: SourceRow, mapping: RowMapping): string {
  if (mapping.idColumn && row.data !== null && typeof row.data === 'object' && !Array.isArray(row.data)) {
    const v = row.data[mapping.idColumn];
    // The id as the results file writes it (rowId), when the row has one.
    if (v !== undefined && v !== null && String(v).trim() !== '') return `id:${rowId(row, mapping)}`;
  }
  const mapped = mapRow(row.data, mapping);
  return mapped.ok ? `state:${canonicalJson(mapped.state as JsonValue)}` : `row:${canonicalJson(row.data)}`;
}

/**
 * The shard (from 1) of an identity among `count`: the first 32 bits of its SHA-256 (of its UTF-8), modulo the count.
 * Node's own SHA-256, not the core's JavaScript one: every shard hashes every row of the file.
 */
export function shardOf(identity: string, count: number): number {
  if (count === 1) return 1;
  return (createHash('sha256').update(identity, 'utf8').digest().readUInt32BE(0) % count) + 1;
}

/** Whether a row belongs to a shard. */
export const inShard = (row: SourceRow, mapping: RowMapping, shard: Shard): boolean =>
  shard.count === 1 || shardOf(shardIdentity(row, mapping), shard.count) === shard.index;
