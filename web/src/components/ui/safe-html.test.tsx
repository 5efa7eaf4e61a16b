import { render } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import { SafeHtml } from './safe-html';

describe('server HTML shown safely', () => {
  it('keeps paragraphs, emphasis and web links', () => {
    const { container } = render(
      <SafeHtml html={'<p>Read our <a href="/privacy-policy" target="_blank">privacy policy</a>, <strong>please</strong>.</p>'} />,
    );
    const link = container.querySelector('a')!;
    expect(link.getAttribute('href')).toBe('/privacy-policy');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(container.querySelector('p strong')?.textContent).toBe('please');
  });

  it('drops scripts, event handlers and script links', () => {
    const { container } = render(
      <SafeHtml html={'<p onclick="alert(1)">Hi<script>alert(1)</script><img src=x onerror="alert(1)"><a href="javascript:alert(1)">x</a></p>'} />,
    );
    expect(container.innerHTML).toBe('<div><p>Hi<span>x</span></p></div>');
  });

  it('shows plain text as it is', () => {
    const { container } = render(<SafeHtml html="Orders ship within 2 days & returns are free." />);
    expect(container.textContent).toBe('Orders ship within 2 days & returns are free.');
  });
});
