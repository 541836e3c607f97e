// Reading the JSON log lines a test server wrote: parsed, and found by request id once written
// (the request line is written after the response has been sent, so it may lag a little).
import { setTimeout as sleep } from 'node:timers/promises';

export type LogLine = Record<string, unknown>;

export function parseLogs(lines: string[]): LogLine[] {
  return lines.map((line) => JSON.parse(line) as LogLine);
}

/** Every line of one request, once its `request` line is there (throws after `timeoutMs`). */
export async function requestLogs(lines: string[], requestId: string, timeoutMs = 2000): Promise<LogLine[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mine = parseLogs(lines).filter((l) => l.request_id === requestId);
    if (mine.some((l) => l.msg === 'request')) {
      // Let anything logged in the same breath land too, so "exactly one" means exactly one.
      await sleep(20);
      return parseLogs(lines).filter((l) => l.request_id === requestId);
    }
    if (Date.now() > deadline) throw new Error(`no request log line for ${requestId}`);
    await sleep(10);
  }
}
