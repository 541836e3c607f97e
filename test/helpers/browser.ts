// A real browser for the dashboard suite: Debian's Chromium, started here with a fresh profile and
// driven over the DevTools protocol by playwright-core (which downloads nothing). Without Chromium
// the suite fails with the fix, never skips.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface RunningBrowser {
  browser: Browser;
  pid: number;
  close(): Promise<void>;
}

export async function startBrowser(): Promise<RunningBrowser> {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(`Chromium is not installed at ${CHROMIUM}: the dashboard's browser tests need it. Install it with "apt-get install -y chromium" (.ci/run does this), or set CHROMIUM_PATH.`);
  }
  const profile = await fsp.mkdtemp(path.join(os.tmpdir(), 'cms-chromium-'));
  const child: ChildProcess = spawn(
    CHROMIUM,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-quic',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
      '--ignore-certificate-errors',
      `--user-data-dir=${profile}`,
      '--remote-debugging-address=127.0.0.1',
      '--remote-debugging-port=0',
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const endpoint = new Promise<string>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`Chromium did not start within 30 s: ${seen.slice(-500)}`)), 30_000);
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      seen += chunk;
      const match = /DevTools listening on (ws:\/\/\S+)/.exec(seen);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Chromium exited (${code}) before it listened: ${seen.slice(-500)}`));
    });
  });
  const pid = child.pid!;
  let browser: Browser;
  try {
    browser = await chromium.connectOverCDP(await endpoint);
  } catch (error) {
    // Leave nothing behind: the process we started and its profile go.
    if (child.exitCode === null) process.kill(pid, 'SIGKILL');
    await fsp.rm(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    throw error;
  }
  return {
    browser,
    pid,
    async close() {
      await browser.close().catch(() => {});
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        process.kill(pid, 'SIGTERM');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
        if (child.exitCode === null) {
          process.kill(pid, 'SIGKILL');
          await exited;
        }
      }
      // Chromium's helper processes can still be writing into the profile for a moment after the
      // browser process has gone (CI once saw ENOTEMPTY here, and the suite's later cleanups never
      // ran): fs.rm retries that case, and a profile left behind in the temporary directory is
      // reported, not a reason to leave the suite's servers open.
      await fsp.rm(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }).catch((error: unknown) => {
        console.error(`could not remove the Chromium profile ${profile}: ${String(error)}`);
      });
    },
  };
}
