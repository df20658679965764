import type { Product } from '@comms/core';

/** Where a redactable product's transactions live: its ledger product and the family that owns it. */
export interface RedactTarget {
  /** The product of its usage records in the ledger. */
  ledger: Product;
  /** The service binding of the family keeping its own copy (a `RedactableRpc`), when bound here. */
  binding: string;
  /** How the vendor names the product in its messages. */
  label: string;
}

/**
 * The products of spec 2.15. A family whose binding this deployment lacks (messages, until it is
 * built and offers `redactTransaction`) has its ledger records scrubbed and nothing else;
 * a transaction the ledger does not know is `invalid-id` whatever the product.
 */
export const REDACT_PRODUCTS = {
  sms: { ledger: 'SMS', binding: 'SMS', label: 'SMS' },
  voice: { ledger: 'VOICE-CALL', binding: 'VOICE', label: 'VOICE' },
  'number-insight': { ledger: 'NUMBER-INSIGHT', binding: 'INSIGHT', label: 'NUMBER-INSIGHT' },
  verify: { ledger: 'VERIFY-API', binding: 'VERIFY', label: 'VERIFY' },
  'verify-sdk': { ledger: 'VERIFY-API', binding: 'VERIFY', label: 'VERIFY-SDK' },
  messages: { ledger: 'MESSAGES', binding: 'MESSAGES', label: 'MESSAGES' },
} as const satisfies Record<string, RedactTarget>;

export type RedactProduct = keyof typeof REDACT_PRODUCTS;
