import { describe, expect, it } from 'vitest';
import { carries, RequestSearch } from '../../local/sandbox/request-search.ts';
import type { RecordedRequest } from '../../local/sandbox/server.ts';

/** The sandboxes' search of their recorded requests (local/sandbox/request-search.ts), kept per marker. */
const request = (body: string, extra: Partial<RecordedRequest> = {}): RecordedRequest => ({
  method: 'POST',
  path: '/act_1/campaigns',
  query: {},
  rawQuery: '',
  headers: {},
  body,
  ...extra,
});

describe('the sandbox’s request search', () => {
  it('looks in the query, the body and the authorization header, nowhere else', () => {
    expect(carries(request('', { query: { access_token: 'tok-1' } }), 'tok-1')).toBe(true);
    expect(carries(request('{"status":"PAUSED"}'), '"PAUSED"')).toBe(true);
    expect(carries(request('', { headers: { authorization: 'Bearer tok-2' } }), 'tok-2')).toBe(true);
    expect(carries(request('', { path: '/tok-3', headers: { 'x-other': 'tok-3' } }), 'tok-3')).toBe(false);
  });

  it('asked again, finds what was recorded since, in order, and drops what is no longer kept', () => {
    const search = new RequestSearch();
    const requests: RecordedRequest[] = [];
    const record = (entry: RecordedRequest) => {
      requests.push(entry);
      search.recorded(entry);
      return entry;
    };
    const first = record(request('user-a 1'));
    const other = record(request('user-b 1'));
    expect(search.carrying(requests, 'user-a')).toEqual([first]);
    const second = record(request('user-a 2'));
    expect(search.carrying(requests, 'user-a')).toEqual([first, second]);
    // the oldest recorded request falls out (the sandbox keeps so many): its match goes with it
    requests.shift();
    const third = record(request('user-a 3'));
    expect(search.carrying(requests, 'user-a')).toEqual([second, third]);
    expect(search.carrying(requests, 'user-b')).toEqual([other]);
    requests.shift();
    expect(search.carrying(requests, 'user-b')).toEqual([]);
    expect(search.carrying(requests, 'user-a')).toEqual([second, third]);
  });

  it('forgets its answers with the requests', () => {
    const search = new RequestSearch();
    const requests = [request('user-a 1')];
    search.recorded(requests[0] as RecordedRequest);
    expect(search.carrying(requests, 'user-a')).toHaveLength(1);
    requests.length = 0;
    search.forgetAll();
    expect(search.carrying(requests, 'user-a')).toEqual([]);
    const again = request('user-a 2');
    requests.push(again);
    search.recorded(again);
    expect(search.carrying(requests, 'user-a')).toEqual([again]);
  });
});
