// Full page loads away from the app (a product URL from the shop, an external
// shop). One function, so tests can stand in for the browser's navigation.
export function leavePage(url: string): void {
  window.location.assign(url);
}
