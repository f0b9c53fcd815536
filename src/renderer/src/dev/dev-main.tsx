// Development entry: the real UI over the in-memory fake API. Only dev.html loads it; the shipped
// index.html never does. ?scenario=demo|empty|big picks the data, ?latency=<ms> slows every call,
// ?end=<team> ends that team a few seconds after start (its undelivered messages turn undeliverable),
// ?liveMs=<ms> is how often the researcher's running tool call finishes and the next one starts
// (default 8000; 0 keeps activity still).
import { mount } from '../mount';
import { createFakeApi, type FakeScenario } from './fake-api';

const params = new URLSearchParams(location.search);
const api = createFakeApi({
  scenario: (params.get('scenario') as FakeScenario | null) ?? 'demo',
  latencyMs: Number(params.get('latency') ?? 0),
  liveMs: Number(params.get('liveMs') ?? 8000),
});
(window as unknown as { teamdeckFake: typeof api }).teamdeckFake = api;
mount(api, document.getElementById('root')!);

// ?live=1: a little traffic after start, to see unread badges, the pill and presence change.
if (params.get('live')) {
  let n = 0;
  const tick = () => {
    n++;
    api.deliver('analysis', { from: 'team-lead', to: 'user', text: `Status update ${n}: researcher and implementer are both on the auth fix.`, time: Date.now() });
    if (n < 3) setTimeout(tick, 800);
  };
  setTimeout(tick, 1000);
}

const ending = params.get('end');
if (ending) setTimeout(() => api.endTeam(ending), 3000);
