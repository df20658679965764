/**
 * Fields of a usage record that hold personal data (numbers, message text, caller names);
 * redaction replaces them, whatever the product.
 */
export const PERSONAL_FIELDS = [
  'from',
  'to',
  'text',
  'body',
  'number',
  'msisdn',
  'caller_name',
  'first_name',
  'last_name',
  'from_number',
  'to_number',
  'destination',
];
