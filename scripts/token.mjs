// Prints an application JWT for the demo voice application that `pnpm dev` created, for trying the
// Voice API with curl: TOKEN=$(node scripts/token.mjs). Valid for 15 minutes; RS256, with the
// `application_id`, `iat`, `exp` and `jti` claims the platform checks.
import { createPrivateKey, randomUUID, sign } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './stack.mjs';

const demoDir = join(ROOT, '.wrangler', 'demo');
const credentialsFile = join(demoDir, 'credentials.json');
if (!existsSync(credentialsFile)) {
  console.error('No demo application yet: start the stack once with `npx -y pnpm@10.34.8 dev`.');
  process.exit(1);
}
const { application_id: applicationId } = JSON.parse(readFileSync(credentialsFile, 'utf8'));
const key = createPrivateKey(readFileSync(join(demoDir, 'private.key'), 'utf8'));
const now = Math.floor(Date.now() / 1000);
const part = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
const unsigned = `${part({ alg: 'RS256', typ: 'JWT' })}.${part({
  application_id: applicationId,
  iat: now,
  exp: now + 900,
  jti: randomUUID(),
})}`;
const signature = sign('sha256', Buffer.from(unsigned), key).toString('base64url');
process.stdout.write(`${unsigned}.${signature}\n`);
