// The page's first script: the shop's global styles, then the app once the page has
// painted. The server sends each page rendered, so the shopper reads it at once; the
// app's code follows and takes over the page without changing it.
import './styles/tokens.css';
import './styles/base.css';

function start() {
  void import('./main');
}

if (document.visibilityState === 'visible') {
  // After the next frame: the page paints before the app's code is fetched.
  requestAnimationFrame(() => setTimeout(start, 0));
} else {
  start();
}
