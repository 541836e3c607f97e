// Links in e-mail, built from the public URL at the moment a message is queued (tests and PORT=0
// only know it once the server listens, hence a function).

export class MailLinks {
  constructor(private readonly publicUrl: () => string) {}

  /** The set-password page of a one-time link (its token travels in the query, which request logs redact). */
  setPassword(token: string): string {
    return `${this.publicUrl()}/password/set?token=${encodeURIComponent(token)}`;
  }

  /** A section of the dashboard: usage, settings (webhooks), keys, content. */
  dashboard(section: 'usage' | 'settings' | 'keys' | 'content'): string {
    return `${this.publicUrl()}/${section}`;
  }
}
