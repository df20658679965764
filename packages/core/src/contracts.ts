/**
 * The typed RPC surfaces services offer each other over service bindings. A service never
 * imports another service's code; it imports the contract from here and casts its binding.
 * Expected failures come back as discriminated results, since only `name` and `message` of a
 * thrown error survive RPC.
 */
import type { AccountIdentity, CredentialStore } from './auth';
import type { Amount } from './money';
import type { SignatureMethod } from './signature';

/** A JSON value: what crosses RPC and storage as a record's fields. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

export type Product =
  | 'SMS'
  | 'VOICE-CALL'
  | 'WEBSOCKET-CALL'
  | 'VERIFY-API'
  | 'NUMBER-INSIGHT'
  | 'MESSAGES'
  | 'CONVERSATIONS'
  | 'ASR'
  | 'NUMBERS';

export type Direction = 'inbound' | 'outbound';

export interface ChargeRequest {
  product: Product;
  direction?: Direction;
  /** The transaction's id (message id, call uuid, verify request id). */
  id: string;
  /** What to debit, in units of 10^-8 EUR; 0 records usage without a charge. */
  amount: Amount;
  /** The product's report fields (spec 2.14), stored with the usage record. */
  record: JsonObject;
  /**
   * When the usage began (epoch ms), which report windows and their order go by: a call charged
   * when it ends belongs to the time it started. The time of the charge when omitted.
   */
  occurredAt?: number;
}

export type ChargeResult =
  | { ok: true; balance: Amount; recordId: number }
  | { ok: false; reason: 'insufficient-funds' | 'no-account'; balance: Amount };

/**
 * Several checks and charges in one atomic step, for the hot path of a send: take one unit of
 * throughput, refuse demo accounts where they may not send, and charge every part or none.
 */
export interface TransactRequest {
  throughput?: ThroughputKind;
  /** Refuse accounts in demo mode (their destination is not a test number). */
  refuseDemo?: boolean;
  charges: ChargeRequest[];
}

export type TransactResult =
  | { ok: true; balances: Amount[]; settings: AccountSettings }
  | { ok: false; reason: 'no-account' | 'throttled' | 'demo-mode' | 'insufficient-funds'; balance: Amount };

export interface RefundRequest {
  product: Product;
  direction?: Direction;
  id: string;
  amount: Amount;
  record?: JsonObject;
}

export interface UsageRecord {
  seq: number;
  id: string;
  product: Product;
  direction: Direction | null;
  amount: Amount;
  createdAt: number;
  record: JsonObject;
  redacted: boolean;
}

export interface UsageQuery {
  product: Product;
  direction?: Direction;
  ids?: string[];
  /** Inclusive start, epoch ms. */
  from?: number;
  /** Exclusive end, epoch ms. */
  to?: number;
  /** Return records after this sequence number (paging). */
  after?: number;
  limit?: number;
}

export type ThroughputKind = 'outbound-sms' | 'inbound-sms' | 'calls' | 'pricing' | 'verify' | 'insight';

export interface AccountSettings {
  'mo-callback-url': string;
  'dr-callback-url': string;
  'max-outbound-request': number;
  'max-inbound-request': number;
  'max-calls-per-second': number;
}

export interface SandboxAccountInit {
  /** EUR, default 10. */
  balance?: number;
  auto_reload?: boolean;
  /** Makes a secondary (sub-)account of this primary account. */
  primary_api_key?: string;
  signature_method?: SignatureMethod;
  /** Accounts in demo mode may only send to their listed numbers. */
  demo_mode?: boolean;
  /** Whether SMS receipts and inbound SMS carry `timestamp`, `nonce` and `sig`. */
  sign_webhooks?: boolean;
  /** Whether verify requests may set `pin_code`. */
  pin_code_allowed?: boolean;
  settings?: Partial<
    Pick<AccountSettings, 'max-outbound-request' | 'max-inbound-request' | 'max-calls-per-second'>
  >;
  /** Seconds before a transaction may be redacted; the redact service's default (an hour) otherwise. */
  redact_after_seconds?: number;
  /** Per-second allowances of the APIs limited per account outside the settings (reports 10, redact 170). */
  rate_limits?: Partial<Record<AllowanceKind, number>>;
}

export interface SandboxAccount {
  api_key: string;
  api_secret: string;
  signature_secret: string;
  signature_method: SignatureMethod;
  primary_api_key?: string;
}

/** What the accounts service offers its siblings. */
export interface AccountsRpc extends CredentialStore {
  identity(apiKey: string): Promise<AccountIdentity | null>;
  /**
   * An application's voice webhooks (`answer_url`, `fallback_answer_url`, `event_url`, each
   * `{address, http_method}`), for calls that name none; null for an unknown application.
   */
  applicationVoiceWebhooks(
    applicationId: string,
  ): Promise<Partial<
    Record<'answer_url' | 'fallback_answer_url' | 'event_url', { address: string; http_method: string }>
  > | null>;
  charge(apiKey: string, request: ChargeRequest): Promise<ChargeResult>;
  refund(apiKey: string, request: RefundRequest): Promise<ChargeResult>;
  transact(apiKey: string, request: TransactRequest): Promise<TransactResult>;
  /**
   * Brings the report fields of a transaction's charge up to date (a verify request's final status,
   * say); fields already redacted stay redacted. False when the ledger has no such charge.
   */
  amendUsage(apiKey: string, request: { product: Product; id: string; record: JsonObject }): Promise<boolean>;
  usage(apiKey: string, query: UsageQuery): Promise<UsageRecord[]>;
  /** Scrubs personal data from the usage records of a transaction; false when none exist. */
  redactUsage(apiKey: string, id: string, product: Product): Promise<boolean>;
  /** Takes one unit of the account's per-second allowance; false when it is used up. */
  takeThroughput(apiKey: string, kind: ThroughputKind): Promise<boolean>;
  settings(apiKey: string): Promise<AccountSettings | null>;
  /** Demo mode (may only send to test numbers) and whether verify may set `pin_code`. */
  flags(apiKey: string): Promise<{ demoMode: boolean; pinCodeAllowed: boolean } | null>;
  /** The signature secret and method, and whether legacy webhooks are to be signed with them. */
  signingSecret(
    apiKey: string,
  ): Promise<{ secret: string; method: SignatureMethod; signWebhooks: boolean } | null>;
  createSandboxAccount(
    init: SandboxAccountInit,
  ): Promise<{ ok: true; account: SandboxAccount } | { ok: false; error: string }>;
  reset(): Promise<void>;
}

/** Casts a service binding to the contract it serves. */
export function rpc<T>(binding: unknown): T {
  return binding as T;
}

/** An owned number as other services need it (inbound routing, `from` checks, voice). */
export interface OwnedNumber {
  apiKey: string;
  country: string;
  msisdn: string;
  type: 'landline' | 'landline-toll-free' | 'mobile-lvn';
  features: ('SMS' | 'VOICE' | 'MMS')[];
  moHttpUrl: string;
  appId: string;
  voiceCallbackType: '' | 'sip' | 'tel' | 'app';
  voiceCallbackValue: string;
  voiceStatusCallback: string;
}

/** What the numbers service offers its siblings. */
export interface NumbersRpc {
  /** Who rents a number and its callbacks; null when nobody does. */
  owner(msisdn: string): Promise<OwnedNumber | null>;
  /** The numbers an account rents that are linked to an application (voice `random_from_number`). */
  numbersOfApplication(apiKey: string, applicationId: string): Promise<OwnedNumber[]>;
  reset(): Promise<void>;
}

/** One entry of a simulated phone's inbox (`GET /_sandbox/handsets/:msisdn/messages`). */
export interface HandsetMessage {
  id: string;
  from: string;
  to: string;
  text: string;
  /** `sms` for texts; `voice` for what a text-to-speech call said. */
  channel: 'sms' | 'voice';
  received_at: string;
}

/** An SMS sent from a simulated phone to a number (`POST /_sandbox/inbound-sms`). */
export interface InboundSms {
  from: string;
  to: string;
  text: string;
}

export type InboundSmsResult =
  | { ok: true; message_ids: string[]; webhook_url: string | null }
  | { ok: false; reason: 'not-rented' | 'invalid'; detail: string };

/** What the SMS service offers its siblings and the gateway. */
export interface SmsRpc {
  /** Puts a message in a simulated phone's inbox (verify PINs, spoken text of calls). */
  deliverToHandset(message: Omit<HandsetMessage, 'id' | 'received_at'>): Promise<HandsetMessage>;
  handsetMessages(msisdn: string): Promise<HandsetMessage[]>;
  inbound(message: InboundSms): Promise<InboundSmsResult>;
  reset(): Promise<void>;
}

// ---- reports and redact ------------------------------------------------------------------------

/** A position in the ledger's (created_at, seq) order: paging resumes strictly after it. */
export interface UsageCursor {
  createdAt: number;
  seq: number;
}

/** A page of charged usage records in time order, as reports read them. */
export interface UsagePageQuery {
  product: Product;
  direction?: Direction;
  ids?: string[];
  /** Inclusive start, epoch ms. */
  from?: number;
  /** Exclusive end, epoch ms. */
  to?: number;
  after?: UsageCursor;
  /** Equality filters on the record's own fields (`status` of an SMS, for one). */
  fields?: Record<string, string>;
  /** 1 to 10,000; default 1,000. */
  limit?: number;
}

/** A charge as reports show it: refunds of the same transaction are netted into `refunded`. */
export interface ReportableUsage {
  seq: number;
  id: string;
  product: Product;
  direction: Direction | null;
  amount: Amount;
  refunded: Amount;
  createdAt: number;
  /** The record's fields as JSON text: parsed once, by the reader, rather than copied as objects. */
  record: string;
  redacted: boolean;
}

export interface UsagePage {
  records: ReportableUsage[];
  /** Where the next page starts; null on the last page. */
  next: UsageCursor | null;
}

/** APIs limited per account per second outside the account settings: sync reports (10), redact (170). */
export type AllowanceKind = 'reports' | 'redact';

/** Synthetic usage records for load tests (`POST /_sandbox/usage/seed`), spread evenly over a window. */
export interface UsageSeed {
  count: number;
  /** Epoch ms of the first record. */
  from: number;
  /** Epoch ms after the last record. */
  to: number;
}

/** What the reports and redact services read from the ledger beyond `AccountsRpc`. */
export interface UsageReportingRpc {
  usagePage(apiKey: string, query: UsagePageQuery): Promise<UsagePage>;
  /** The API keys of an account's secondary accounts (`include_subaccounts`). */
  secondaryAccounts(apiKey: string): Promise<string[]>;
  /** Takes one unit of a per-second allowance; false when it is used up or the account is unknown. */
  takeAllowance(apiKey: string, kind: AllowanceKind): Promise<boolean>;
  /** The account's redaction waiting time (null: the deployment's default); null when no account. */
  redactionSettings(apiKey: string): Promise<{ waitSeconds: number | null } | null>;
  /** Sandbox only: inserts synthetic outbound SMS records without charging; answers how many. */
  seedUsage(apiKey: string, seed: UsageSeed): Promise<number>;
}

/**
 * What each family that keeps its own copy of a transaction offers redact: scrub the personal data
 * (numbers, text, names) of that transaction; false when the family holds no such transaction.
 */
export interface RedactableRpc {
  redactTransaction(apiKey: string, id: string, type?: 'inbound' | 'outbound'): Promise<boolean>;
}

/** What the voice service offers the gateway's sandbox: the simulated callee of a call, and reset. */
export interface VoiceRpc {
  /**
   * Steers the callee of a call (`POST /_sandbox/calls/:uuid`): answer, busy, reject, voicemail
   * (`machine`), hang up, press keys or speak. Refused when the call is not in a state to take it.
   */
  control(
    uuid: string,
    control:
      | { action: 'answer' | 'busy' | 'reject' | 'machine' | 'hangup' }
      | { action: 'dtmf'; digits: string }
      | { action: 'speech'; text: string },
  ): Promise<
    | { ok: true; status: string; consumed: boolean }
    | { ok: false; reason: 'not-found' | 'invalid-state'; detail: string }
  >;
  /**
   * A simulated phone calls a rented number (`POST /_sandbox/handsets/:msisdn/calls`): an inbound
   * leg that the number's application answers with its `answer_url` NCCO. `baseUrl` is the origin
   * recordings of the call are downloaded from.
   */
  inboundCall(
    call: { from: string; to: string },
    baseUrl: string,
  ): Promise<
    | { ok: true; uuid: string; conversation_uuid: string; answer_url: string }
    | { ok: false; reason: 'not-rented' | 'not-linked'; detail: string }
  >;
  /** The sandbox's view of a call: its status history, timers, running action and timeline. */
  inspect(uuid: string): Promise<JsonObject | null>;
  reset(): Promise<void>;
}
