// The one template every message is made from: a message is defined once, as data (subject,
// paragraphs, facts, a list, an action link), and rendered here to a plain-text part and an HTML
// part. The HTML comes from Preact's renderer, so every value is escaped by construction; styles
// are inline because mail clients drop style sheets.
import { renderToString } from 'preact-render-to-string';

export const SERVICE_NAME = 'Content Management Service';

export type Block =
  /** A paragraph. */
  | string
  /** Label and value pairs, such as "Route: GET /v1/content/:id". */
  | { facts: [string, string][] }
  /** A bulleted list. */
  | { list: string[] }
  /** The one thing to do: a button in HTML, the address on a line of its own in text. */
  | { action: { label: string; url: string } };

export interface MailContent {
  subject: string;
  blocks: Block[];
  /** Why the person got this e-mail, in small print at the end. */
  footer: string;
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

export function renderMail(content: MailContent): RenderedMail {
  return { subject: content.subject, text: renderText(content), html: `<!doctype html>${renderToString(<MailHtml content={content} />)}` };
}

function renderText(content: MailContent): string {
  const parts = content.blocks.map((block) => {
    if (typeof block === 'string') return block;
    if ('facts' in block) return block.facts.map(([label, value]) => `${label}: ${value}`).join('\n');
    if ('list' in block) return block.list.map((item) => `- ${item}`).join('\n');
    return `${block.action.label}:\n${block.action.url}`;
  });
  return `${[...parts, '--', content.footer].join('\n\n')}\n`;
}

const FONT = "font-family:system-ui,-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;";
const INK = 'color:#1b1f24;';
const MUTED = 'color:#4a5360;font-size:13px;';

function MailHtml({ content }: { content: MailContent }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{content.subject}</title>
      </head>
      <body style={`margin:0;padding:0;background:#f5f7fa;${FONT}${INK}`}>
        <div style="max-width:560px;margin:0 auto;padding:24px 16px;">
          <div style="background:#ffffff;border:1px solid #c9d0d8;border-radius:8px;padding:24px;line-height:1.5;font-size:15px;">
            <p style={`margin:0 0 16px;${MUTED}`}>{SERVICE_NAME}</p>
            {content.blocks.map((block, i) => (
              <HtmlBlock key={i} block={block} />
            ))}
          </div>
          <p style={`margin:16px 0 0;${MUTED}`}>{content.footer}</p>
        </div>
      </body>
    </html>
  );
}

function HtmlBlock({ block }: { block: Block }) {
  if (typeof block === 'string') return <p style="margin:0 0 16px;">{block}</p>;
  if ('facts' in block) {
    return (
      <table role="presentation" style="border-collapse:collapse;margin:0 0 16px;">
        {block.facts.map(([label, value]) => (
          <tr>
            <th scope="row" style="text-align:left;vertical-align:top;padding:2px 12px 2px 0;font-weight:600;">
              {label}
            </th>
            <td style="padding:2px 0;word-break:break-word;">{value}</td>
          </tr>
        ))}
      </table>
    );
  }
  if ('list' in block) {
    return (
      <ul style="margin:0 0 16px;padding-left:20px;">
        {block.list.map((item) => (
          <li>{item}</li>
        ))}
      </ul>
    );
  }
  const { label, url } = block.action;
  return (
    <>
      <p style="margin:0 0 8px;">
        <a href={url} style="display:inline-block;background:#0b57d0;color:#ffffff;padding:10px 18px;border-radius:6px;text-decoration:none;font-weight:600;">
          {label}
        </a>
      </p>
      <p style={`margin:0 0 16px;${MUTED}word-break:break-all;`}>
        Or open this address: <a href={url} style="color:#0b57d0;">{url}</a>
      </p>
    </>
  );
}
