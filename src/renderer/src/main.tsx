import { getApi } from './api';
import { mount } from './mount';

mount(getApi(), document.getElementById('root')!);
