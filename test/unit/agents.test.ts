import { describe, expect, it } from 'vitest';
import { argumentProblems } from '../../shared/agents/argument-check.ts';
import { clientOfSession, sessionIdOf, UNKNOWN_CLIENT } from '../../shared/agents/client-session.ts';
import { originAllowed } from '../../shared/agents/origins.ts';
import { listedTools, operationTools } from '../../shared/agents/tool-catalog.ts';
import { refusalCode, toolResultOf } from '../../shared/agents/tool-results.ts';

/** The pure parts of /mcp (docs/agents.md): the tools read from a document, the session's client, the Origin check, the answers. */
const document = {
  paths: {
    '/things/list': {
      post: {
        operationId: 'list_things',
        summary: 'List things',
        description: 'Every thing.',
        requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { userId: { type: 'string' } }, required: ['userId'] } } } },
        responses: {
          '200': {
            content: {
              'application/json': {
                schema: {
                  anyOf: [
                    { properties: { results: { type: 'object', properties: { things: { type: 'array' } } } } },
                    { $ref: '#/components/schemas/PlatformRefusal' },
                  ],
                },
              },
            },
          },
        },
        'x-mcp-annotations': { readOnlyHint: true, openWorldHint: false },
      },
    },
    '/things/pause': {
      post: {
        operationId: 'pause_thing',
        summary: 'Pause a thing',
        description: 'Pauses it.',
        parameters: [{ $ref: '#/components/parameters/IdempotencyKey' }],
        requestBody: {
          content: {
            'application/json': {
              schema: { type: 'object', properties: { id: { type: 'string' }, validateOnly: { type: 'boolean' }, secret: false }, additionalProperties: false },
            },
          },
        },
        'x-mcp-annotations': { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
      },
    },
    '/auth/connect/{linkId}': { get: { operationId: 'connect_start', summary: 'A page' } },
  },
};

describe('the tool catalog', () => {
  const catalog = operationTools(document);

  it('takes each keyed JSON operation of the document, and nothing else', () => {
    expect(catalog.map((entry) => [entry.tool.name, entry.path, entry.readOnly, entry.dryRun, entry.idempotencyKey])).toEqual([
      ['list_things', '/things/list', true, false, false],
      ['pause_thing', '/things/pause', false, true, true],
    ]);
  });

  it('a read declares its results as output; a write declares none; a never-sent field is {not: {}}', () => {
    const [read, write] = catalog;
    expect(read?.tool.outputSchema).toEqual({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { things: { type: 'array' } },
    });
    expect(write?.tool.outputSchema).toBeUndefined();
    expect(write?.tool.inputSchema.properties).toEqual({ id: { type: 'string' }, validateOnly: { type: 'boolean' }, secret: { not: {} } });
    expect(write?.tool.annotations).toEqual({ title: 'Pause a thing', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true });
  });

  it('lists reads only under off; adds confirm_action under confirm', () => {
    expect(listedTools(catalog, 'off').map((tool) => tool.name)).toEqual(['list_things']);
    expect(listedTools(catalog, 'apply').map((tool) => tool.name)).toEqual(['list_things', 'pause_thing']);
    expect(listedTools(catalog, 'confirm').map((tool) => tool.name)).toEqual(['list_things', 'pause_thing', 'confirm_action']);
  });

  it('names every argument problem at once, with the allowed values', () => {
    const tool = {
      ...catalog[1]!.tool,
      inputSchema: { ...catalog[1]!.tool.inputSchema, required: ['id'], properties: { id: { type: 'string' }, mode: { enum: ['A', 'B'] } } },
    };
    expect(argumentProblems(tool, { mode: 'C', other: 1 })).toEqual([
      { path: 'id', message: "must have required property 'id'" },
      { path: 'other', message: 'is not a field of this tool' },
      { path: 'mode', message: 'must be equal to one of the allowed values: A, B' },
    ]);
    expect(argumentProblems(tool, { id: 'x', mode: 'A' })).toEqual([]);
  });
});

describe('the session id', () => {
  it('carries the client’s declared name and version, in visible ASCII', () => {
    const id = sessionIdOf({ name: 'Claude Desktop ✓', version: '1.0.2' });
    expect(id).toMatch(/^[\x21-\x7e]+$/);
    expect(clientOfSession(id)).toEqual({ name: 'Claude Desktop ?', version: '1.0.2' });
    expect(sessionIdOf({ name: 'a' })).not.toBe(sessionIdOf({ name: 'a' }));
  });

  it('anything else is an unknown client', () => {
    for (const id of [undefined, '', 'abc', 'abc.!!!', `x.${Buffer.from('[1]').toString('base64url')}`, `x.${'A'.repeat(700)}`])
      expect(clientOfSession(id)).toEqual(UNKNOWN_CLIENT);
  });
});

describe('the Origin check', () => {
  it('no Origin passes; a listed one passes; loopback only where allowed, on any port; nothing that merely starts like one', () => {
    expect(originAllowed(undefined, [], false)).toBe(true);
    expect(originAllowed('https://app.example.com', ['https://app.example.com'], false)).toBe(true);
    expect(originAllowed('https://app.example.com.evil.test', ['https://app.example.com'], false)).toBe(false);
    expect(originAllowed('http://localhost:5173', [], false)).toBe(false);
    expect(originAllowed('http://localhost:5173', [], true)).toBe(true);
    expect(originAllowed('http://127.0.0.1', [], true)).toBe(true);
    expect(originAllowed('http://[::1]:8080', [], true)).toBe(true);
    expect(originAllowed('http://localhost.evil.test', [], true)).toBe(false);
    expect(originAllowed('null', [], true)).toBe(false);
  });
});

describe('an HTTP answer as a tool result', () => {
  it('a success carries results; a refusal in band or by status is isError with its code and details', () => {
    expect(toolResultOf(200, { success: true, results: { success: true, n: 1 } })).toEqual({
      content: [{ type: 'text', text: '{"success":true,"n":1}' }],
      structuredContent: { success: true, n: 1 },
    });
    const refused = toolResultOf(200, { success: true, results: { success: false, code: 'INVALID_TRANSITION', error: 'It is deleted.' } });
    expect(refused).toEqual({ content: [{ type: 'text', text: 'INVALID_TRANSITION: It is deleted.' }], isError: true });
    const invalid = toolResultOf(400, { success: false, results: { success: false, code: 'INVALID_REQUEST', error: 'Bad.', details: [{ path: 'x' }] } });
    expect(invalid.content[0]?.text).toBe('INVALID_REQUEST: Bad.\n{"details":[{"path":"x"}]}');
    expect(refusalCode(invalid)).toBe('INVALID_REQUEST');
    expect(refusalCode(toolResultOf(502, undefined))).toBe('INTERNAL');
  });
});
