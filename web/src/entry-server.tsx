// The server bundle's entry: the engine lacks some of what the app's libraries use
// at load time (URL above all), so the polyfills run first and the app loads after.
import './server/polyfills';

export const load = () => import('./server/render');
