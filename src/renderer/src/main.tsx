import { getApi, takeBoot } from './api';
import { mount } from './mount';

// In the Electron window there is no start-up data (and takeBoot finds none).
const boot = window.teamdeck ? undefined : takeBoot();
mount(getApi(boot), document.getElementById('root')!, boot);
