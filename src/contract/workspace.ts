// The team workspace's wire (issue 40): one zod schema per request and answer of /api/workspace, read by the server
// (src/server/workspace) and the page alike. Every request carries `X-Workbench-Request: 1` (the proxy's header),
// except the server-sent events, which EventSource cannot add headers to; the cookie is HttpOnly and SameSite=Strict.
// A command line sends `Authorization: Bearer <token>` instead of the cookie.
import { z } from 'zod';
import { ACTIVE_FLOOR, ActiveTargetSchema } from './activeTarget';
import { QuestionsSchema, StateSchema } from './request';

/** Where the workspace lives on the workbench's port. */
export const WORKSPACE_BASE = '/api/workspace';

/** The paths, relative to nothing: each is the full path the browser fetches. `:id` is a queue id. */
export const WORKSPACE_PATHS = {
  status: `${WORKSPACE_BASE}/status`,
  start: `${WORKSPACE_BASE}/start`,
  claim: `${WORKSPACE_BASE}/claim`,
  invites: `${WORKSPACE_BASE}/invites`,
  join: `${WORKSPACE_BASE}/join`,
  people: `${WORKSPACE_BASE}/people`,
  tokens: `${WORKSPACE_BASE}/tokens`,
  queues: `${WORKSPACE_BASE}/queues`,
  next: `${WORKSPACE_BASE}/queues/:id/next`,
  labels: `${WORKSPACE_BASE}/queues/:id/labels`,
  skip: `${WORKSPACE_BASE}/queues/:id/skip`,
  disagreements: `${WORKSPACE_BASE}/queues/:id/disagreements`,
  adjudications: `${WORKSPACE_BASE}/queues/:id/adjudications`,
  figures: `${WORKSPACE_BASE}/queues/:id/figures`,
  events: `${WORKSPACE_BASE}/queues/:id/events`,
  export: `${WORKSPACE_BASE}/queues/:id/export`,
  import: `${WORKSPACE_BASE}/queues/:id/import`,
} as const;

/** A path with its queue id filled in. */
export const queuePath = (path: string, id: string): string => path.replace(':id', encodeURIComponent(id));

/** The cookie that carries a person's token (HttpOnly, SameSite=Strict, Path=/api). */
export const WORKSPACE_COOKIE = 'workbench_workspace';

/** The fragment keys of the links a person opens: `<origin>/#workspace-owner=<token>`, `#workspace-invite=<token>`. */
export const OWNER_LINK_KEY = 'workspace-owner';
export const INVITE_LINK_KEY = 'workspace-invite';

/** A token as it travels (base64url of 32 random bytes); the server keeps only its sha-256. */
export const WorkspaceTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, 'not a workspace token');

export const RoleSchema = z.enum(['owner', 'labeller']);
export type Role = z.infer<typeof RoleSchema>;

const Name = z.string().trim().min(1).max(80);
const Id = z.string().min(1).max(64);

/** Who a request speaks for. */
export const PersonSchema = z.object({ id: Id, name: Name, role: RoleSchema });
export type Person = z.infer<typeof PersonSchema>;

/** Every refusal and error: a sentence for a person, never a token. */
export const WorkspaceErrorSchema = z.object({
  error: z.object({ type: z.string(), message: z.string() }),
});
export type WorkspaceError = z.infer<typeof WorkspaceErrorSchema>;

// ---- people and access -------------------------------------------------------------------------------------------

/** GET status: whether a workspace was started, and who this browser is in it (null: nobody yet). */
export const StatusResponseSchema = z.object({ started: z.boolean(), me: PersonSchema.nullable() });
export type StatusResponse = z.infer<typeof StatusResponseSchema>;

/** POST start: only from this machine (loopback) and only once; sets the owner's cookie in this browser. */
export const StartRequestSchema = z.object({ name: Name.default('Owner') });
/** The one-time owner link (to open the workspace as its owner in another browser); printed once to the server log. */
export const StartResponseSchema = z.object({ me: PersonSchema, ownerLink: z.string() });
export type StartResponse = z.infer<typeof StartResponseSchema>;

/** POST claim: an owner link's token, opened in another browser, becomes that browser's owner cookie (once). */
export const ClaimRequestSchema = z.object({ token: WorkspaceTokenSchema });
export const ClaimResponseSchema = z.object({ me: PersonSchema });

/** POST invites (owner): a single-use link that expires. */
export const InviteRequestSchema = z.object({
  /** Who the invite is meant for, shown to the owner; the labeller names themself when joining. */
  note: z.string().max(120).default(''),
  expiresInSeconds: z
    .number()
    .int()
    .min(60)
    .max(30 * 24 * 3600)
    .default(7 * 24 * 3600),
});
export const InviteResponseSchema = z.object({ id: Id, link: z.string(), expiresAt: z.string() });
export type InviteResponse = z.infer<typeof InviteResponseSchema>;

/** POST join: an invite's token and the labeller's name; sets the labeller's cookie (the page never sees a token). */
export const JoinRequestSchema = z.object({ invite: WorkspaceTokenSchema, name: Name });
export const JoinResponseSchema = z.object({ me: PersonSchema });

/**
 * POST tokens (owner): a bearer token for the command line (`WORKBENCH_WORKSPACE_TOKEN`), shown once, acting as the
 * owner. The page shows it for copying and keeps nothing.
 */
export const TokenResponseSchema = z.object({ token: WorkspaceTokenSchema });

/** GET people (owner): everyone in the workspace. */
export const PeopleResponseSchema = z.object({
  people: z.array(PersonSchema.extend({ joinedAt: z.string() })),
});

// ---- queues ------------------------------------------------------------------------------------------------------

/** A human label value: a choice label, a 0-based score level, or yes/no (as src/core/labels stores it). */
export const WorkspaceLabelValueSchema = z.union([z.string(), z.number().int().min(0), z.boolean()]);
export type WorkspaceLabelValue = z.infer<typeof WorkspaceLabelValueSchema>;

/**
 * The judge's answer to one question of a row: its label, its top probability (null when unknown) and, when known, its
 * probabilities over the question's classes in criteria order (yes/no: [no, yes]), which an active order reads.
 */
export const JudgeAnswerSchema = z.object({
  label: WorkspaceLabelValueSchema,
  confidence: z.number().min(0).max(1).nullable().default(null),
  probabilities: z.array(z.number().min(0).max(1)).max(256).optional(),
});
export type JudgeAnswer = z.infer<typeof JudgeAnswerSchema>;

/** One row as the owner publishes it: its key (the id column, or its number), its state, the judge's answers. */
export const PublishedRowSchema = z.object({
  key: z.string().min(1).max(200),
  state: StateSchema,
  judge: z.record(z.string(), JudgeAnswerSchema).optional(),
});
export type PublishedRow = z.infer<typeof PublishedRowSchema>;

/**
 * How many people label a row: `perRow` people (a number, or "everyone" in the workspace) on `share` of the rows
 * (chosen at random with the seed), one person on the rest. share 1 means every row.
 */
export const OverlapSchema = z.object({
  perRow: z.union([z.number().int().min(1).max(1000), z.literal('everyone')]).default(1),
  share: z.number().gt(0).max(1).default(1),
});
export type Overlap = z.infer<typeof OverlapSchema>;

/** "any": whoever asks next gets a row; "assigned": only the listed people (ids) see the queue. */
export const AssignmentSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('any') }),
  z.object({ kind: z.literal('assigned'), people: z.array(Id).min(1) }),
]);
export type Assignment = z.infer<typeof AssignmentSchema>;

/**
 * The order rows are handed out: random by default (so agreement estimates stay unbiased), as published, or active:
 * the rows the judge is least sure of on one question first, each with a known probability (Zrnic & Candès 2024), for
 * an estimate of `target` from `budget` labels.
 */
export const OrderSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('random'), seed: z.number().int().default(1) }),
  z.object({ kind: z.literal('given') }),
  z.object({
    kind: z.literal('active'),
    question: z.string().min(1),
    target: ActiveTargetSchema,
    budget: z.number().int().min(2),
    floor: z.number().gt(0).max(1).default(ACTIVE_FLOOR),
    seed: z.number().int().default(1),
  }),
]);
export type QueueOrder = z.output<typeof OrderSchema>;

/** POST queues (owner): publish rows with their questions as a queue. */
export const CreateQueueRequestSchema = z.object({
  name: Name,
  questions: QuestionsSchema,
  rows: z.array(PublishedRowSchema).min(1).max(1_000_000),
  overlap: OverlapSchema.default({ perRow: 1, share: 1 }),
  assignment: AssignmentSchema.default({ kind: 'any' }),
  reservationSeconds: z.number().int().min(1).max(86_400).default(600),
  order: OrderSchema.default({ kind: 'random', seed: 1 }),
});
export type CreateQueueRequest = z.input<typeof CreateQueueRequestSchema>;

/** Progress as a person reads it: "41 of 200, about 12 minutes left" (secondsLeft null until a label was timed). */
export const ProgressSchema = z.object({
  done: z.number().int().min(0),
  total: z.number().int().min(0),
  secondsLeft: z.number().min(0).nullable(),
  text: z.string(),
});
export type Progress = z.infer<typeof ProgressSchema>;

/** A queue as listed: the owner sees everyone's progress, a labeller their own. */
export const QueueSummarySchema = z.object({
  id: Id,
  name: Name,
  questions: QuestionsSchema,
  rows: z.number().int(),
  overlap: OverlapSchema,
  assignment: AssignmentSchema,
  reservationSeconds: z.number().int(),
  createdAt: z.string(),
  progress: ProgressSchema,
});
export type QueueSummary = z.infer<typeof QueueSummarySchema>;

export const CreateQueueResponseSchema = z.object({ queue: QueueSummarySchema });
export const QueueListResponseSchema = z.object({ queues: z.array(QueueSummarySchema) });

/** POST :id/next (labeller or owner): reserve the next row for this person. Never carries a judge answer. */
export const NextResponseSchema = z.object({
  row: z
    .object({
      /** The row's position in the published rows, 0-based: what labels and skips name. */
      index: z.number().int().min(0),
      key: z.string(),
      state: StateSchema,
      /** This person's own earlier labels of the row (when it comes back after a lapse), by question. */
      mine: z.record(z.string(), WorkspaceLabelValueSchema),
    })
    .nullable(),
  reservedUntil: z.string().nullable(),
  questions: QuestionsSchema,
  progress: ProgressSchema,
  /** Why no row: every row this person may label is labelled, or the rest are reserved by others for now. */
  reason: z.enum(['row', 'done', 'reserved']),
});
export type NextResponse = z.infer<typeof NextResponseSchema>;

/** One label as sent: `clientId` makes a retry harmless; `at` is when the person gave it (the server's time if absent). */
export const LabelInputSchema = z.object({
  row: z.number().int().min(0),
  question: z.string().min(1),
  value: WorkspaceLabelValueSchema,
  clientId: z.string().min(1).max(100),
  at: z.iso.datetime().optional(),
  /** Seconds the person spent on the row for this label, for the time per label (the server measures if absent). */
  seconds: z.number().min(0).max(86_400).optional(),
});
export type LabelInput = z.infer<typeof LabelInputSchema>;

/** PUT :id/labels: one or more labels (an offline queue sends its backlog at once), applied in one transaction. */
export const PutLabelsRequestSchema = z.object({ labels: z.array(LabelInputSchema).min(1).max(1000) });
export const PutLabelsResponseSchema = z.object({
  saved: z.array(
    z.object({
      row: z.number().int(),
      question: z.string(),
      clientId: z.string(),
      /** new: first label; edit: a second answer replaced the first; same: a retry of a label already stored. */
      outcome: z.enum(['new', 'edit', 'same']),
    }),
  ),
  progress: ProgressSchema,
});
export type PutLabelsResponse = z.infer<typeof PutLabelsResponseSchema>;

/** POST :id/skip: hand the reserved row back; this person is not offered it again. */
export const SkipRequestSchema = z.object({ row: z.number().int().min(0) });
export const SkipResponseSchema = z.object({ progress: ProgressSchema });

/** A stored label; `source` says whether it was given in the workspace or imported (keeping who gave it). */
export const StoredLabelSchema = z.object({
  row: z.number().int(),
  key: z.string(),
  question: z.string(),
  person: z.string(),
  name: z.string(),
  value: WorkspaceLabelValueSchema,
  clientId: z.string(),
  at: z.string(),
  editedAt: z.string().nullable(),
  seconds: z.number().nullable(),
  source: z.enum(['workspace', 'import']),
});
export type StoredLabel = z.infer<typeof StoredLabelSchema>;

/** GET :id/labels: the owner gets everyone's, a labeller only their own. */
export const LabelsResponseSchema = z.object({ labels: z.array(StoredLabelSchema) });

/** A settled label of a row's question, set by the owner. */
export const SettledSchema = z.object({
  value: WorkspaceLabelValueSchema,
  note: z.string(),
  at: z.string(),
});

/** GET :id/disagreements (owner): each row and question where people gave different labels. */
export const DisagreementsResponseSchema = z.object({
  disagreements: z.array(
    z.object({
      row: z.number().int(),
      key: z.string(),
      question: z.string(),
      labels: z.array(z.object({ person: z.string(), name: z.string(), value: WorkspaceLabelValueSchema })),
      settled: SettledSchema.nullable(),
    }),
  ),
});
export type DisagreementsResponse = z.infer<typeof DisagreementsResponseSchema>;

/** PUT :id/adjudications (owner): settle a row's question (value null clears the settled label). */
export const AdjudicationRequestSchema = z.object({
  row: z.number().int().min(0),
  question: z.string().min(1),
  value: WorkspaceLabelValueSchema.nullable(),
  note: z.string().max(2000).default(''),
});
export const AdjudicationResponseSchema = z.object({ settled: SettledSchema.nullable() });

/** Which labels a figure used: each person apart, the majority of a row's labels, or the settled label (else majority). */
export const FiguresBasisSchema = z.enum(['each', 'majority', 'settled']);
export type FiguresBasis = z.infer<typeof FiguresBasisSchema>;

/**
 * One question's labels in the shape src/core/trust's TrustData takes, as plain arrays: ratings row-major
 * (rows x annotators, -1 missing), the judge's class index per row (-1: no answer) and its confidence (null: unknown).
 */
export const TrustDataWireSchema = z.object({
  type: z.enum(['choice', 'score', 'noul']),
  classes: z.array(z.string()),
  annotators: z.array(z.string()),
  ratings: z.array(z.number().int()),
  judge: z.array(z.number().int()),
  confidence: z.array(z.number().nullable()),
});
export type TrustDataWire = z.infer<typeof TrustDataWireSchema>;

/** Per labeller: labels given, median seconds per label, agreement with the others on shared rows so far. */
export const LabellerFiguresSchema = z.object({
  person: z.string(),
  name: z.string(),
  labels: z.number().int(),
  medianSeconds: z.number().nullable(),
  /** Share of pairs (this person and another, same row and question) that agree; null with no shared rows. */
  agreement: z.number().min(0).max(1).nullable(),
  pairs: z.number().int(),
  /** True when this person has shared rows and agrees with no one on any of them: worth seeing early. */
  agreesWithNoOne: z.boolean(),
});
export type LabellerFigures = z.infer<typeof LabellerFiguresSchema>;

/** GET :id/figures?basis=each|majority|settled (owner). */
const MeanEstimateWireSchema = z.object({
  value: z.number(),
  lo: z.number(),
  hi: z.number(),
  se: z.number(),
});

/**
 * A queue in active order: the estimate of its target from the labels so far (each weighted by the inverse of its
 * probability), what random order would need for that width and would give with as many labels, and the sentence.
 */
export const ActiveEstimateWireSchema = z.object({
  question: z.string(),
  target: ActiveTargetSchema,
  n: z.number().int(),
  N: z.number().int(),
  beyondFrontier: z.number().int(),
  estimate: MeanEstimateWireSchema,
  randomEquivalent: z.object({
    ppi: z.number().int().nullable(),
    classical: z.number().int().nullable(),
    seAtN: z.object({ ppi: z.number(), classical: z.number() }),
  }),
  sentence: z.string(),
});
export type ActiveEstimateWire = z.infer<typeof ActiveEstimateWireSchema>;

export const FiguresResponseSchema = z.object({
  basis: FiguresBasisSchema,
  /** The queue's active estimate (active order only; null before two labels in order). */
  active: ActiveEstimateWireSchema.nullable().optional(),
  /** Row keys in published order: the rows of every TrustDataWire. */
  keys: z.array(z.string()),
  labellers: z.array(LabellerFiguresSchema),
  trust: z.record(z.string(), TrustDataWireSchema),
  labels: z.number().int(),
  computedAt: z.string(),
});
export type FiguresResponse = z.infer<typeof FiguresResponseSchema>;

/** One server-sent event of GET :id/events (owner), named `label` or `adjudication`; data is this JSON. */
export const WorkspaceEventSchema = z.object({
  kind: z.enum(['label', 'adjudication', 'import']),
  queue: Id,
  row: z.number().int().nullable(),
  question: z.string().nullable(),
  person: z.string().nullable(),
  /** Labels stored in the queue after this event. */
  labels: z.number().int(),
  at: z.string(),
});
export type WorkspaceEvent = z.infer<typeof WorkspaceEventSchema>;

/** The interchange formats of GET :id/export?format= and POST :id/import?format= (owner). */
export const InteropFormatSchema = z.enum(['csv', 'labelstudio', 'argilla']);
export type InteropFormat = z.infer<typeof InteropFormatSchema>;

/** POST :id/import answer: labels stored, who gave them, and each line left out with its reason. */
export const ImportResponseSchema = z.object({
  imported: z.number().int(),
  people: z.array(z.string()),
  problems: z.array(z.string()),
});
export type ImportResponse = z.infer<typeof ImportResponseSchema>;
