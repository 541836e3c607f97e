// Types for the part of autocannon 8's programmatic API the benchmark uses (it ships none).
declare module 'autocannon' {
  import type { ConnectionOptions } from 'node:tls';

  namespace autocannon {
    interface Request {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string;
      /** Called before each request on a connection; returns the request to send. */
      setupRequest?: (request: Request, context: Record<string, unknown>) => Request;
    }

    interface Options {
      url: string;
      connections?: number;
      /** Seconds. */
      duration?: number;
      /** Seconds a request may take before it counts as a timeout. */
      timeout?: number;
      method?: string;
      headers?: Record<string, string>;
      body?: string;
      requests?: Request[];
      /** Passed to tls.connect (autocannon 8 always adds rejectUnauthorized: false). */
      tlsOptions?: ConnectionOptions;
    }

    /** Histogram summary; latency values are whole milliseconds. */
    interface Stats {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      p50: number;
      p90: number;
      p99: number;
      total?: number;
    }

    interface Result {
      duration: number;
      requests: Stats & { sent: number };
      latency: Stats & { totalCount: number };
      throughput: Stats;
      errors: number;
      timeouts: number;
      non2xx: number;
      '2xx': number;
      statusCodeStats: Record<string, { count: number }>;
    }
  }

  /** A run: its result once done, each response as it comes (responseTime in ms), and `stop()` to end it early. */
  type Instance = Promise<autocannon.Result> & {
    on(event: 'response', listener: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void): Instance;
    stop(): void;
  };

  function autocannon(options: autocannon.Options): Instance;
  export = autocannon;
}
