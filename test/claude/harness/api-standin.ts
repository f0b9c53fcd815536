// A scripted Messages API on 127.0.0.1 for the real Claude Code: every request is logged
// (body and headers) so a test can assert exactly what a model received, and answered by the
// script of the agent that sent it, streamed as server-sent events like the real API.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { firstUserText, newContentOf, textOfBlock, text, usageOfReply, type ApiRequest, type ReplyBlock, type ReplyUsage, type Script } from './script.js';
import { waitFor } from './wait.js';

/** The token a test puts in the lead's first typed prompt: the lead sends no agent header. */
export const LEAD_TOKEN = '[[ROLE:lead]]';

/**
 * The token that names a pane teammate (a `claude` process of its own, which sends no agent
 * header): put `[[AGENT:<name>]]` in its spawn prompt.
 */
export const agentToken = (name: string): string => `[[AGENT:${name}]]`;

export interface ApiStandin {
  url: string;
  port: number;
  /** Every request, in arrival order. */
  log: ApiRequest[];
  /** Messages requests of one agent (`lead`, a teammate name, `side`, `unknown`). */
  requestsOf(agent: string): ApiRequest[];
  /** The first request of `agent` (already logged or still to come) for which `predicate` holds. */
  waitForRequest(agent: string, predicate: (r: ApiRequest) => boolean, timeoutMs: number, what?: string): Promise<ApiRequest>;
  /** Replace or add an agent's script while the team runs. */
  setScript(agent: string, script: Script): void;
  close(): Promise<void>;
}

function agentOf(headers: IncomingMessage['headers'], body: ApiRequest['body']): string {
  const id = headers['x-claude-code-agent-id'];
  if (typeof id === 'string' && id) return id.split('@')[0]!;
  if (!body?.tools || body.tools.length === 0) return 'side';
  const first = firstUserText(body.messages);
  if (first.includes(LEAD_TOKEN)) return 'lead';
  const named = /\[\[AGENT:([\w-]+)\]\]/.exec(first);
  if (named) return named[1]!;
  return 'unknown';
}

function sse(res: ServerResponse, event: string, data: unknown): void {
  res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

function withIds(seq: number, reply: ReplyBlock[]): ReplyBlock[] {
  return reply.map((b, i) => (b.type === 'tool_use' && !b.id ? { ...b, id: `toolu_${seq}_${i}_${randomBytes(4).toString('hex')}` } : b));
}

function streamReply(res: ServerResponse, model: string, seq: number, reply: ReplyBlock[], final: ReplyUsage): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  // As the API streams it: the input side and a first output count at the start, the final output count at the end.
  const usage = { ...final, output_tokens: 1 };
  sse(res, 'message_start', {
    type: 'message_start',
    message: { id: `msg_standin_${seq}`, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage },
  });
  reply.forEach((b, index) => {
    if (b.type === 'text') {
      sse(res, 'content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      sse(res, 'content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: b.text } });
    } else {
      sse(res, 'content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id: b.id, name: b.name, input: {} } });
      sse(res, 'content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(b.input) } });
    }
    sse(res, 'content_block_stop', { type: 'content_block_stop', index });
  });
  const stop = reply.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn';
  sse(res, 'message_delta', { type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: final.output_tokens } });
  sse(res, 'message_stop', { type: 'message_stop' });
  res.end();
}

function plainReply(res: ServerResponse, model: string, seq: number, reply: ReplyBlock[], usage: ReplyUsage): void {
  const content = reply.map((b) => (b.type === 'text' ? { type: 'text', text: b.text } : { type: 'tool_use', id: b.id, name: b.name, input: b.input }));
  const stop = reply.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn';
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ id: `msg_standin_${seq}`, type: 'message', role: 'assistant', model, content, stop_reason: stop, stop_sequence: null, usage }));
}

/**
 * Starts the stand-in. `scripts` are keyed by agent; `default` answers agents without one;
 * without either the answer is a short text. A script that throws answers 500 (logged).
 */
export async function startApiStandin(scripts: Record<string, Script> = {}): Promise<ApiStandin> {
  const log: ApiRequest[] = [];
  const table = new Map(Object.entries(scripts));
  let seq = 0;

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const n = ++seq;
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: ApiRequest['body'];
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        body = undefined;
      }
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const newContent = newContentOf(body?.messages);
      const entry: ApiRequest = {
        seq: n,
        at: Date.now(),
        method: req.method ?? '',
        url: req.url ?? '',
        headers: { ...req.headers },
        body,
        agent: agentOf(req.headers, body),
        newContent,
        newText: newContent.map(textOfBlock).join('\n'),
      };
      log.push(entry);
      if (req.method === 'POST' && path === '/v1/messages/count_tokens') {
        entry.status = 200;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"input_tokens":10}');
        return;
      }
      if (req.method !== 'POST' || path !== '/v1/messages') {
        entry.status = 404;
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: `the stand-in serves no ${req.method} ${path}` } }));
        return;
      }
      const model = body?.model ?? 'claude-opus-5-5';
      const script = entry.agent === 'side' ? undefined : (table.get(entry.agent) ?? table.get('default'));
      const answer = (reply: ReplyBlock[]) => {
        entry.reply = reply;
        entry.status = 200;
        entry.usage = usageOfReply(n);
        if (body?.stream) streamReply(res, model, n, reply, entry.usage);
        else plainReply(res, model, n, reply, entry.usage);
      };
      const fail = (e: unknown) => {
        entry.status = 500;
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: `script failed: ${(e as Error).message}` } }));
      };
      const fallback = () => [text(entry.agent === 'side' ? 'Untitled' : `${entry.agent}: ok`)];
      let out: ReturnType<Script>;
      try {
        out = script?.(entry);
      } catch (e) {
        fail(e);
        return;
      }
      // A script may answer later (a promise): a model that is slow to reply, as real ones are.
      if (out instanceof Promise) out.then((r) => answer(withIds(n, r ?? fallback())), fail);
      else answer(withIds(n, out ?? fallback()));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  const requestsOf = (agent: string) => log.filter((r) => r.agent === agent && r.url.startsWith('/v1/messages') && !r.url.includes('count_tokens'));
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    log,
    requestsOf,
    waitForRequest: (agent, predicate, timeoutMs, what) =>
      waitFor(() => requestsOf(agent).find(predicate), { what: what ?? `a model request from ${agent}`, timeoutMs }),
    setScript: (agent, script) => void table.set(agent, script),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
