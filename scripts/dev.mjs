// `pnpm dev`: the whole stack on one port, with the demo credentials printed.
import { ensureDemo, startStack } from './stack.mjs';

const port = Number(process.env.PORT ?? 8787);
const token = process.env.SANDBOX_TOKEN || 'sandbox-dev-token';

const stack = await startStack({ port, token, log: (line) => console.log(line) });
const demo = await ensureDemo(stack);

console.log(`
──────────────────────────────────────────────────────────────────────
 Communications platform running at ${stack.url}  (every API host, one port)

 Sandbox token        ${token}    (Authorization: Bearer …, for /_sandbox/*)
 Demo API key         ${demo.api_key}
 Demo API secret      ${demo.api_secret}
 Signature secret     ${demo.signature_secret}  (${demo.signature_method})
 Demo application id  ${demo.application_id}
 Its private key      ${demo.private_key_path}
 A JWT for it         npx -y pnpm@10.34.8 -s token   (15 minutes; for /v1/calls)

 Try: curl "${stack.url}/account/get-balance?api_key=${demo.api_key}&api_secret=${demo.api_secret}"
 State is kept under .wrangler/state; Ctrl-C stops.
──────────────────────────────────────────────────────────────────────
`);

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, async () => {
    await stack.stop();
    process.exit(0);
  });
}
stack.child.on('exit', (code) => process.exit(code ?? 0));
