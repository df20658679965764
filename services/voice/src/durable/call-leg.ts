import { DurableObject } from 'cloudflare:workers';
import { armAlarm, type JsonObject, migrate, type WebhookJob, webhookJob } from '@comms/core';
import { randomApplicationNumber } from '../application-numbers';
import { callObject } from '../call-object';
import { type CallEndpoint, endpointAddress } from '../endpoints';
import {
  type CallEffect,
  type CallInput,
  type CallSetup,
  type CallState,
  nextTimer,
  type StepOutcome,
  type StepResult,
  type StoredRecording,
  startCall,
  step,
} from '../machine';
import { accounts, conferenceKey, conferenceOf, directoryOf, indexOf, legOf, sms } from '../objects';
import { legSetup } from '../setup';

const MIGRATIONS = [
  `CREATE TABLE leg (id INTEGER PRIMARY KEY CHECK (id = 1), state TEXT NOT NULL);
   CREATE TABLE outbox (seq INTEGER PRIMARY KEY AUTOINCREMENT, due_at INTEGER NOT NULL, job TEXT NOT NULL);`,
];

/**
 * Webhooks of one leg leave at least this far apart. The webhook queue hands a batch of jobs to
 * parallel deliveries; spacing the events of a call by more than the queue's one-second batch window
 * keeps each in a batch of its own, so a receiver sees `started`, `ringing`, `answered`, `completed`
 * in order.
 */
export const EVENT_SPACING_MS = 1200;
/** Fetches and timer rounds one alarm works off before it leaves the rest to the next. */
const MAX_ALARM_ROUNDS = 20;
/** How soon a charge the ledger could not take is tried again. */
const CHARGE_RETRY_MS = 5000;

/** What answers a control of the leg, or says the leg does not exist. */
export type LegOutcome = StepOutcome | { ok: false; reason: 'not-found'; detail: string };

/**
 * One call leg, named by its uuid. The state machine (`machine.ts`) decides; this object keeps its
 * state, drains its timers with one alarm, and carries out its effects: events go to the webhook
 * queue (spaced, in order), the answer URL is fetched by the worker (`NCCO_FETCHER`), spoken words
 * reach the callee's handset, `connect` places legs, and the end of the leg is charged once.
 */
/** A pending NCCO fetch as the alarm finds it. */
type FetchEffect = Extract<CallEffect, { kind: 'fetch-ncco' }>;

export class CallLeg extends DurableObject<Env> {
  private readonly sql: SqlStorage;
  private state: CallState | null = null;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    ctx.blockConcurrencyWhile(async () => {
      migrate(this.sql, MIGRATIONS);
      this.state = this.load();
    });
  }

  /** Places the leg. */
  async start(setup: CallSetup): Promise<void> {
    if (this.state) return;
    await directoryOf(this.env).note('leg', setup.uuid);
    await this.commit(startCall(setup, this.context()));
  }

  /** Applies an input: the callee, the API (for the owning account only), a connected leg. */
  async input(input: CallInput, apiKey?: string): Promise<LegOutcome> {
    if (!this.state || (apiKey !== undefined && this.state.setup.apiKey !== apiKey)) {
      return { ok: false, reason: 'not-found', detail: 'No such call' };
    }
    const result = step(this.state, input, this.context());
    await this.commit(result);
    return result.outcome;
  }

  /** The call object as JSON text, for the account that owns the leg; null for anyone else or no leg. */
  view(apiKey: string): string | null {
    return this.state && this.state.setup.apiKey === apiKey ? JSON.stringify(callObject(this.state)) : null;
  }

  /** The leg's identity for an answer webhook (transfers by URL), for its owner only. */
  identity(apiKey: string): Record<string, string> | null {
    if (!this.state || this.state.setup.apiKey !== apiKey) return null;
    return answerParams(this.state.setup);
  }

  /** The leg's status; null when there is no such leg. */
  status(): string | null {
    return this.state?.status ?? null;
  }

  /** The sandbox's view as JSON text: status history, pending timers, the running action, the timeline. */
  async inspect(): Promise<string | null> {
    const s = this.state;
    if (!s) return null;
    const program = s.program;
    const alarm = await this.ctx.storage.getAlarm();
    const outbox = this.sql.exec<{ n: number }>('SELECT COUNT(*) AS n FROM outbox').one().n;
    return JSON.stringify({
      call: callObject(s),
      history: s.history.map((h) => ({ status: h.status, at: new Date(h.at).toISOString() })),
      timers: Object.fromEntries(Object.entries(s.timers).map(([k, v]) => [k, new Date(v).toISOString()])),
      action: program.actions[program.index]?.action ?? null,
      waiting: (program.waiting as JsonObject | null) ?? null,
      muted: s.muted,
      earmuffed: s.earmuffed,
      children: s.children,
      charged: s.charged,
      // Events waiting for their turn to leave (EVENT_SPACING_MS), and when the alarm sends them.
      pending_events: outbox,
      // The named conversation the leg waits in, and who else is in it.
      conversation: await this.conversationView(),
      alarm: alarm === null ? null : new Date(alarm).toISOString(),
      timeline: s.timeline,
    });
  }

  private async conversationView(): Promise<JsonObject | null> {
    const waiting = this.state?.program.waiting;
    if (!this.state || waiting?.kind !== 'hold' || waiting.conversation === undefined) return null;
    const key = conferenceKey(this.state.setup.apiKey, waiting.conversation);
    const members = await conferenceOf(this.env, key)
      .members()
      .catch(() => null);
    return { name: waiting.conversation, members };
  }

  /**
   * Replaces the personal data of the leg (redact): its numbers, addresses and what the timeline
   * heard; false when the account does not own such a leg.
   */
  async redact(apiKey: string): Promise<boolean> {
    const s = this.state;
    if (!s || s.setup.apiKey !== apiKey) return false;
    const redacted = structuredClone(s);
    redacted.setup.from = scrubEndpoint(s.setup.from);
    redacted.setup.to = scrubEndpoint(s.setup.to);
    redacted.timeline = s.timeline.map(({ detail: _, ...entry }) => entry);
    this.state = redacted;
    this.sql.exec('UPDATE leg SET state = ? WHERE id = 1', JSON.stringify(redacted));
    await this.updateIndex(redacted);
    return true;
  }

  /**
   * Does everything that is due, until nothing is: an NCCO to fetch, timers to fire (a timer may ask
   * for a fetch, and a fetched NCCO may start a timer that is due at once). Working it all off here
   * leaves the next alarm strictly in the future: an alarm set during its own handler to the very
   * time it fired at would count as unchanged and be dropped.
   */
  override async alarm(): Promise<void> {
    await this.retryCharge();
    const recordings = await this.ctx.storage.get<StoredRecording[]>('pendingRecordings');
    if (recordings) await this.keepRecordings(recordings);
    for (let round = 0; round < MAX_ALARM_ROUNDS; round++) {
      const pending = await this.ctx.storage.get<number | FetchEffect>('fetch');
      if (pending !== undefined) {
        await this.ctx.storage.delete('fetch');
        // Before input replies existed only the generation was kept.
        await this.fetchAnswer(
          typeof pending === 'number' ? { kind: 'fetch-ncco', generation: pending } : pending,
        );
        continue;
      }
      const due = this.state ? nextTimer(this.state) : null;
      if (!this.state || due === null || due > Date.now()) break;
      await this.commit(step(this.state, { kind: 'tick' }, this.context()));
    }
    await this.drain();
    await this.arm();
  }

  async wipe(): Promise<void> {
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    this.state = null;
    migrate(this.sql, MIGRATIONS);
  }

  // ---- state -----------------------------------------------------------------------------------

  private load(): CallState | null {
    const row = this.sql.exec<{ state: string }>('SELECT state FROM leg WHERE id = 1').toArray()[0];
    return row ? (JSON.parse(row.state) as CallState) : null;
  }

  private context() {
    return { now: Date.now(), newId: () => crypto.randomUUID() };
  }

  /** Saves a transition, then carries out its effects and tells the account's index. */
  private async commit(result: StepResult): Promise<void> {
    const before = this.state;
    this.state = result.state;
    this.sql.exec(
      'INSERT INTO leg (id, state) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET state = excluded.state',
      JSON.stringify(result.state),
    );
    for (const effect of result.effects) await this.perform(effect);
    if (!before || before.status !== result.state.status || before.charged !== result.state.charged) {
      await this.updateIndex(result.state);
    }
    await this.drain();
    await this.arm();
  }

  private async updateIndex(state: CallState) {
    const { setup } = state;
    await indexOf(this.env, setup.apiKey).upsert(setup.apiKey, {
      uuid: setup.uuid,
      conversationUuid: setup.conversationUuid,
      status: state.status,
      createdAt: state.createdAt,
      call: callObject(state),
    });
  }

  private async arm() {
    const times: number[] = [];
    const timer = this.state ? nextTimer(this.state) : null;
    if (timer !== null) times.push(timer);
    const outbox = this.sql.exec<{ t: number | null }>('SELECT MIN(due_at) AS t FROM outbox').one().t;
    if (outbox !== null) times.push(outbox);
    if ((await this.ctx.storage.get('fetch')) !== undefined) times.push(Date.now());
    const charge = await this.ctx.storage.get<{ retryAt: number }>('pendingCharge');
    if (charge) times.push(charge.retryAt);
    if (await this.ctx.storage.get('pendingRecordings')) times.push(Date.now() + CHARGE_RETRY_MS);
    await armAlarm(this.ctx.storage, times.length === 0 ? null : Math.min(...times));
  }

  // ---- effects ---------------------------------------------------------------------------------

  private async perform(effect: CallEffect): Promise<void> {
    const setup = this.state!.setup;
    switch (effect.kind) {
      case 'webhook':
        await this.enqueue(setup, effect.target, effect.body);
        return;
      case 'fetch-ncco':
        // Fetched by the alarm, so that whoever caused the answer (the sandbox, the network) is not
        // kept waiting on the customer's server.
        await this.ctx.storage.put('fetch', effect);
        return;
      case 'say':
        await sms(this.env)
          .deliverToHandset({
            // The line the words come from: the caller id of an outbound leg, the rented number of an inbound one.
            from: endpointAddress(setup.direction === 'inbound' ? setup.to : setup.from),
            to: effect.handset,
            text: effect.text,
            channel: 'voice',
          })
          .catch((err) => console.error('voice: handset delivery failed', setup.uuid, err));
        return;
      case 'connect':
        await this.placeConnectedLeg(setup, effect.uuid, effect.action);
        return;
      case 'hangup-leg':
        await legOf(this.env, effect.uuid)
          .input({ kind: 'hangup' })
          .catch((err) => console.error('voice: could not hang up a connected leg', effect.uuid, err));
        return;
      case 'parent':
        await legOf(this.env, effect.parentUuid)
          .input({ kind: 'child-ended', uuid: setup.uuid, status: effect.status, event: effect.event })
          .catch((err) => console.error('voice: could not tell the parent leg', effect.parentUuid, err));
        return;
      case 'charge':
        await this.charge(effect.amount, effect.record);
        return;
      case 'recording':
        await this.keepRecordings([effect.recording]);
        return;
      case 'join-conversation': {
        const key = conferenceKey(setup.apiKey, effect.name);
        await conferenceOf(this.env, key)
          .join(key, { uuid: setup.uuid, endOnExit: effect.endOnExit, startOnEnter: effect.startOnEnter })
          .catch((err) => console.error('voice: could not join the conversation', setup.uuid, err));
        return;
      }
      case 'leave-conversation': {
        const key = conferenceKey(setup.apiKey, effect.name);
        await conferenceOf(this.env, key)
          .leave(key, setup.uuid)
          .catch((err) => console.error('voice: could not leave the conversation', setup.uuid, err));
        return;
      }
    }
  }

  /** Puts a webhook in the outbox, no sooner than `EVENT_SPACING_MS` after the leg's previous one. */
  private async enqueue(setup: CallSetup, target: { url: string; method: 'GET' | 'POST' }, body: JsonObject) {
    const now = Date.now();
    const last = (await this.ctx.storage.get<number>('lastEventDue')) ?? Number.NEGATIVE_INFINITY;
    const due = Math.max(now, last + EVENT_SPACING_MS);
    await this.ctx.storage.put('lastEventDue', due);
    const seq = ((await this.ctx.storage.get<number>('eventSeq')) ?? 0) + 1;
    await this.ctx.storage.put('eventSeq', seq);
    const job = webhookJob({
      // Stable: a job sent twice is delivered once.
      id: `voice-${setup.uuid}-${seq}`,
      accountKey: setup.apiKey,
      kind: 'voice-event',
      url: target.url,
      method: target.method,
      encoding: target.method === 'GET' ? 'query' : 'json',
      body,
      signing: 'jwt',
      applicationId: setup.applicationId,
      now,
    });
    this.sql.exec('INSERT INTO outbox (due_at, job) VALUES (?, ?)', due, JSON.stringify(job));
  }

  /** Sends the webhooks whose time has come, in order; a failed send stays for the next alarm. */
  private async drain() {
    const due = this.sql
      .exec<{ seq: number; job: string }>(
        'SELECT seq, job FROM outbox WHERE due_at <= ? ORDER BY seq',
        Date.now(),
      )
      .toArray();
    for (const row of due) {
      try {
        await this.env.WEBHOOKS_QUEUE.send(JSON.parse(row.job) as WebhookJob);
      } catch (err) {
        console.error('voice: webhook queue unavailable', err);
        return;
      }
      this.sql.exec('DELETE FROM outbox WHERE seq = ?', row.seq);
    }
  }

  /** Asks the worker for the answer URL's NCCO and feeds the answer to the machine. */
  private async fetchAnswer(effect: FetchEffect) {
    const setup = this.state?.setup;
    const { generation, request } = effect;
    const target = request
      ? { url: request.url, method: request.method, params: request.body }
      : setup?.answer
        ? { url: setup.answer.url, method: setup.answer.method, params: answerParams(setup) }
        : null;
    if (!setup || !target) return;
    let input: CallInput;
    try {
      const result = await this.env.NCCO_FETCHER.answer(
        target,
        { apiKey: setup.apiKey, applicationId: setup.applicationId },
        { fallback: true },
      );
      input = result.ok
        ? { kind: 'ncco', generation, actions: result.actions }
        : { kind: 'ncco-error', generation, reason: result.reason };
    } catch (err) {
      console.error('voice: NCCO fetcher unavailable', err);
      input = { kind: 'ncco-error', generation, reason: 'answer_url could not be reached' };
    }
    if (this.state) await this.commit(step(this.state, input, this.context()));
  }

  /** Places the leg a `connect` asks for, in the same conversation. */
  private async placeConnectedLeg(
    parent: CallSetup,
    uuid: string,
    action: Extract<CallEffect, { kind: 'connect' }>['action'],
  ) {
    const endpoint = action.endpoint[0]!;
    // Without a number linked to the application, `randomFromNumber` keeps the caller's number.
    const random = action.randomFromNumber
      ? await randomApplicationNumber(this.env, parent.apiKey, parent.applicationId).catch(() => null)
      : null;
    const from = action.from ?? random;
    const setup = legSetup({
      uuid,
      conversationUuid: parent.conversationUuid,
      apiKey: parent.apiKey,
      applicationId: parent.applicationId,
      to: endpoint,
      from: from ? { type: 'phone', number: from } : parent.from,
      event: action.eventUrl?.[0]
        ? { url: action.eventUrl[0], method: action.eventMethod ?? 'POST' }
        : parent.event,
      answer: null,
      ncco: null,
      parentUuid: parent.uuid,
      machineDetection: action.machineDetection ?? null,
      // `limit` may be 0 in the schema; a leg needs at least a second to exist.
      lengthTimerSeconds: Math.max(1, Math.round(action.limit ?? 7200)),
      ringingTimerSeconds: Math.max(1, Math.round(action.timeout ?? 60)),
      baseUrl: parent.baseUrl,
    });
    try {
      await legOf(this.env, uuid).start(setup);
    } catch (err) {
      console.error('voice: could not place a connected leg', uuid, err);
      if (this.state) {
        await this.commit(step(this.state, { kind: 'child-ended', uuid, status: 'failed' }, this.context()));
      }
    }
  }

  /**
   * Files finished recordings with the account's index, where downloads find them; those it cannot
   * take now wait in storage for the alarm to try again.
   */
  private async keepRecordings(recordings: StoredRecording[]) {
    const apiKey = this.state!.setup.apiKey;
    try {
      for (const recording of recordings) await indexOf(this.env, apiKey).addRecording(apiKey, recording);
      const filed = new Set(recordings.map((r) => r.uuid));
      const left = ((await this.ctx.storage.get<StoredRecording[]>('pendingRecordings')) ?? []).filter(
        (r) => !filed.has(r.uuid),
      );
      if (left.length > 0) await this.ctx.storage.put('pendingRecordings', left);
      else await this.ctx.storage.delete('pendingRecordings');
    } catch (err) {
      console.error('voice: recording index unavailable; will retry', err);
      const waiting = (await this.ctx.storage.get<StoredRecording[]>('pendingRecordings')) ?? [];
      const known = new Set(waiting.map((r) => r.uuid));
      await this.ctx.storage.put('pendingRecordings', [
        ...waiting,
        ...recordings.filter((r) => !known.has(r.uuid)),
      ]);
    }
  }

  /** Charges the leg once. A ledger that cannot be reached is tried again by the alarm. */
  private async charge(amount: number, record: JsonObject) {
    await this.ctx.storage.put('pendingCharge', { amount, record, retryAt: Date.now() + CHARGE_RETRY_MS });
    await this.retryCharge(true);
  }

  private async retryCharge(force = false) {
    const pending = await this.ctx.storage.get<{ amount: number; record: JsonObject; retryAt: number }>(
      'pendingCharge',
    );
    if (!pending || !this.state || (!force && pending.retryAt > Date.now())) return;
    const { setup } = this.state;
    const request = {
      product: setup.product,
      direction: setup.direction,
      id: setup.uuid,
      record: pending.record,
      // Reports place a call at its start (`date_start`), not at the charge when it ended.
      occurredAt: this.state.answeredAt ?? this.state.createdAt,
    };
    try {
      let result = await accounts(this.env).charge(setup.apiKey, { ...request, amount: pending.amount });
      // A call the balance cannot cover took place all the same: it takes what is left.
      if (!result.ok && result.reason === 'insufficient-funds') {
        result = await accounts(this.env).charge(setup.apiKey, {
          ...request,
          amount: Math.max(0, result.balance),
        });
      }
      if (!result.ok) console.error('voice: charge refused', setup.uuid, result.reason);
      await this.ctx.storage.delete('pendingCharge');
    } catch (err) {
      console.error('voice: ledger unavailable; will retry', setup.uuid, err);
      await this.ctx.storage.put('pendingCharge', { ...pending, retryAt: Date.now() + CHARGE_RETRY_MS });
    }
  }
}

const REDACTED = '**********';

/** An endpoint with its address replaced, its type kept. */
function scrubEndpoint(endpoint: CallEndpoint): CallEndpoint {
  switch (endpoint.type) {
    case 'phone':
      return { type: 'phone', number: REDACTED };
    case 'sip':
      return { type: 'sip', uri: REDACTED };
    case 'websocket':
      return { type: 'websocket', uri: REDACTED, 'content-type': endpoint['content-type'] };
    case 'vbc':
      return { type: 'vbc', extension: REDACTED };
    case 'app':
      return { type: 'app', user: REDACTED };
  }
}

/** The vendor's answer webhook fields. */
function answerParams(setup: CallSetup): Record<string, string> {
  return {
    to: endpointAddress(setup.to),
    from: endpointAddress(setup.from),
    uuid: setup.uuid,
    conversation_uuid: setup.conversationUuid,
  };
}
