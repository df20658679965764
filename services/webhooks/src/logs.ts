/** The delivery log of one account. */
export function logOf(env: Env, accountKey: string) {
  return env.DELIVERY_LOG.get(env.DELIVERY_LOG.idFromName(accountKey));
}

/** The one directory of delivery logs. */
export function directoryOf(env: Env) {
  return env.LOG_DIRECTORY.get(env.LOG_DIRECTORY.idFromName('directory'));
}

/** Wipes every delivery log the directory knows, and the directory. */
export async function resetLogs(env: Env): Promise<void> {
  const keys = await directoryOf(env).reset();
  await Promise.all(keys.map(({ name }) => logOf(env, name).reset()));
}
