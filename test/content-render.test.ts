// GET /v1/content/{id}?render=html (CONTRACT.md §17): CommonMark with GitHub tables, strikethrough
// and autolinks, sanitized by an allow-list (no script, style, iframe, event attribute, javascript:
// or data: URL; links get rel="noopener noreferrer nofollow"), the same renderer as the dashboard's
// preview, a new rendering for every version.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestAccount, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';
import { renderMarkdown } from '../src/domain/content/markdown.js';

const ATTACKS = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=//evil.example/x.js></SCRIPT>',
  '<style>body { display: none }</style>',
  '<iframe src="https://evil.example"></iframe>',
  '<img src="x" onerror="alert(1)">',
  '<svg onload="alert(1)"><circle /></svg>',
  '<a href="javascript:alert(1)">js</a>',
  '<a href="JaVaScRiPt:alert(1)">js2</a>',
  '<a href="&#106;avascript:alert(1)">js3</a>',
  '<a href=" javascript:alert(1)">js4</a>',
  '<a href="vbscript:msgbox(1)">vb</a>',
  '<a href="data:text/html,<script>alert(1)</script>">data</a>',
  '<img src="data:image/png;base64,iVBORw0KGgo=">',
  '<a href="//evil.example/">protocol-relative</a>',
  '[md-js](javascript:alert(1)) [md-data](data:text/html,x) ![md-img](data:image/gif;base64,R0lGOD)',
  '<object data="x.swf"></object><embed src="x.swf">',
  '<form action="https://evil.example"><input name="q"><button>go</button></form>',
  '<meta http-equiv="refresh" content="0;url=https://evil.example"><base href="https://evil.example/"><link rel="stylesheet" href="x.css">',
  '<p style="background:url(javascript:alert(1))" onclick="alert(1)" class="x">styled</p>',
  '<details open ontoggle="alert(1)"><summary>s</summary>d</details>',
].join('\n\n');

for (const store of testStores()) {
  describe(`rendered Markdown (${store})`, () => {
    let server: TestServer;
    let owner: TestAccount;
    before(async () => {
      server = await startServer(store);
      owner = await server.account();
    });
    after(() => server.close());

    const rendered = async (id: string, query = '?render=html') => {
      const res = await server.client.get(`/v1/content/${id}${query}`, { key: owner.key });
      assert.equal(res.status, 200, res.text);
      return res.body.data as Record<string, unknown> & { content_html?: string };
    };

    it('renders CommonMark with GitHub tables, strikethrough and autolinks', async () => {
      const content = [
        '# Title',
        'Some *emphasis*, **strong**, `code` and ~~struck~~ text.',
        '| Left | Right |\n|:-----|------:|\n| a | 1 |',
        'Visit https://example.com, www.example.org/path. or <https://angle.example>.',
        '```ts\nconst x = 1 < 2;\n```',
        '- one\n- two\n\n3. three\n4. four',
        '> quoted',
      ].join('\n\n');
      const item = await server.content(owner.key, { content });
      const html = (await rendered(String(item.id))).content_html!;
      assert.match(html, /<h1>Title<\/h1>/);
      assert.match(html, /<em>emphasis<\/em>, <strong>strong<\/strong>, <code>code<\/code> and <s>struck<\/s>/);
      assert.match(html, /<th align="left">Left<\/th>\s*<th align="right">Right<\/th>/);
      assert.match(html, /<td align="right">1<\/td>/);
      assert.match(html, /<a href="https:\/\/example.com" rel="noopener noreferrer nofollow">https:\/\/example.com<\/a>,/);
      assert.match(html, /<a href="http:\/\/www.example.org\/path" rel="noopener noreferrer nofollow">www.example.org\/path<\/a>\. /);
      assert.match(html, /<a href="https:\/\/angle.example" rel="noopener noreferrer nofollow">/);
      assert.match(html, /<pre><code class="language-ts">const x = 1 &lt; 2;\n<\/code><\/pre>/);
      assert.match(html, /<ol start="3">/);
      assert.match(html, /<blockquote>/);
    });

    it('keeps only the allow-list: no script, style, iframe, event attribute, javascript: or data: URL', async () => {
      const item = await server.content(owner.key, { content: ATTACKS });
      const html = (await rendered(String(item.id))).content_html!;
      const urls = /(?:href|src)="\s*(?:javascript|vbscript|data):/i;
      for (const forbidden of [/<script/i, /<style/i, /<iframe/i, /<svg/i, /<object/i, /<embed/i, /<form/i, /<input/i, /<meta/i, /<base/i, /<link/i, /\son\w+=/i, urls, /href="\/\//, /style=/i, /class="x"/]) {
        assert.doesNotMatch(html, forbidden);
      }
      // A refused Markdown link stays as the text that was written, inert.
      assert.match(html, /\[md-js\]\(javascript:alert\(1\)\)/);
      assert.doesNotMatch(html, /alert\(1\)<\/script>|display: none/, 'the content of script and style goes too');
      // What is harmless stays.
      assert.match(html, /<details><summary>s<\/summary>d<\/details>/);
      assert.match(html, /<p>styled<\/p>/);
      for (const anchor of html.match(/<a [^>]*>/g) ?? []) assert.match(anchor, /rel="noopener noreferrer nofollow"/);
    });

    it('puts rel="noopener noreferrer nofollow" on every link, whatever rel was written', async () => {
      const item = await server.content(owner.key, { content: '<a href="https://x.example" rel="opener" target="_blank">x</a> [y](https://y.example "t")' });
      const html = (await rendered(String(item.id))).content_html!;
      assert.match(html, /<a href="https:\/\/x.example" rel="noopener noreferrer nofollow">x<\/a>/);
      assert.match(html, /<a href="https:\/\/y.example" title="t" rel="noopener noreferrer nofollow">y<\/a>/);
    });

    it('renders as the dashboard preview does, and anew for every version', async () => {
      const item = await server.content(owner.key, { content: '## First\n\n| a |\n|---|\n| b |' });
      const first = await rendered(String(item.id));
      assert.equal(first.content_html, renderMarkdown(String(item.content)));
      assert.deepEqual(await rendered(String(item.id)), first);
      const put = await server.client.put(`/v1/content/${item.id}`, { key: owner.key, json: { content: 'Second *version*' } });
      assert.equal(put.status, 200);
      const second = await rendered(String(item.id));
      assert.equal(second.version, 2);
      assert.equal(second.content_html, '<p>Second <em>version</em></p>\n');
    });

    it('adds content_html only when asked, on the single-item read only', async () => {
      const item = await server.content(owner.key, { content: 'Plain' });
      const plain = await rendered(String(item.id), '');
      assert.ok(!('content_html' in plain));
      const withHtml = await rendered(String(item.id));
      assert.deepEqual(Object.keys(withHtml).sort(), [...Object.keys(plain), 'content_html'].sort());
      for (const [path, expected] of [
        [`/v1/content/${item.id}?render=markdown`, ['render:invalid_value']],
        [`/v1/content/${item.id}?render=`, ['render:invalid_value']],
        [`/v1/content/${item.id}?render=html&render=html`, ['render:invalid_value']],
        ['/v1/content?render=html', ['render:unknown_field']],
        [`/v1/content/${item.id}/revisions/1?render=html`, ['render:unknown_field']],
      ] as const) {
        const res = await server.client.get(path, { key: owner.key });
        assert.equal(res.status, 400, path);
        assert.deepEqual(res.body.errors.map((e: { field: string; code: string }) => `${e.field}:${e.code}`), expected, path);
      }
    });
  });
}
