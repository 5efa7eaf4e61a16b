import { afterEach, describe, expect, it } from 'vitest';
import { backgroundBehind, brightnessOf, buildAppearance, fontSources, hoverColors, parseColor, readStyles, type ThemeReadings } from './appearance';

const input = {
  color: 'rgb(28, 27, 26)',
  fontFamily: 'system-ui, sans-serif',
  fontSize: '16px',
  fontWeight: '400',
  lineHeight: '22.4px',
  paddingTop: '8.8px',
  paddingRight: '16px',
  paddingBottom: '8.8px',
  paddingLeft: '16px',
  backgroundColor: 'rgb(255, 255, 255)',
  borderTopColor: 'rgb(207, 200, 190)',
  borderTopStyle: 'solid',
  borderTopWidth: '1px',
  borderTopLeftRadius: '10px',
  boxShadow: 'none',
  outlineColor: 'rgb(28, 27, 26)',
  outlineStyle: 'none',
  outlineWidth: '0px',
};
const readings = (overrides: Partial<ThemeReadings> = {}): ThemeReadings => ({
  input,
  invalidInput: { ...input, borderTopColor: 'rgb(165, 42, 31)' },
  label: { color: 'rgb(28, 27, 26)', fontFamily: 'system-ui, sans-serif', fontSize: '14px', fontWeight: '600' },
  background: 'rgb(255, 255, 255)',
  ...overrides,
});

describe('the element’s appearance', () => {
  it('takes its variables from the page', () => {
    expect(buildAppearance(readings(), { oneCheckout: false }).variables).toEqual({
      colorBackground: 'rgb(255, 255, 255)',
      colorText: 'rgb(28, 27, 26)',
      fontFamily: 'system-ui, sans-serif',
      fontSizeBase: '16px',
    });
  });

  it('makes the base font 2px larger in the one-checkout mode', () => {
    expect(buildAppearance(readings(), { oneCheckout: true }).variables?.fontSizeBase).toBe('18px');
  });

  it('picks the light theme on a bright background and the night theme on a dark one', () => {
    expect(buildAppearance(readings(), { oneCheckout: false }).theme).toBe('stripe');
    expect(buildAppearance(readings({ background: 'rgb(20, 20, 24)' }), { oneCheckout: false }).theme).toBe('night');
  });

  it('falls back to a white background when the page has none', () => {
    const appearance = buildAppearance(readings({ background: '' }), { oneCheckout: false });
    expect(appearance.variables?.colorBackground).toBe('rgb(255, 255, 255)');
    expect(appearance.theme).toBe('stripe');
    expect(buildAppearance(readings({ background: 'rgba(0, 0, 0, 0)' }), { oneCheckout: false }).variables?.colorBackground).toBe('rgb(255, 255, 255)');
  });

  it('has the listed rules', () => {
    const rules = buildAppearance(readings(), { oneCheckout: false }).rules!;
    expect(Object.keys(rules).sort()).toEqual(
      ['.Block', '.CheckboxInput', '.Input', '.Input--invalid', '.Label', '.Tab', '.Tab--selected', '.Tab:hover', '.TabIcon', '.Text', '.Text--redirect'].sort(),
    );
    expect(rules['.Input']).toMatchObject({ color: 'rgb(28, 27, 26)', paddingLeft: '16px', borderTopColor: 'rgb(207, 200, 190)', borderTopLeftRadius: '10px' });
    expect(rules['.Input']).not.toHaveProperty('outline');
    expect(rules['.Input--invalid']).toMatchObject({ borderTopColor: 'rgb(165, 42, 31)' });
    expect(rules['.Label']).toEqual({ color: 'rgb(28, 27, 26)', fontFamily: 'system-ui, sans-serif', fontSize: '14px', fontWeight: '600' });
    expect(rules['.Text']).toEqual(rules['.Label']);
    expect(rules['.Text--redirect']).toEqual(rules['.Label']);
    expect(rules['.Tab']).toEqual({ backgroundColor: 'rgb(255, 255, 255)', color: 'rgb(28, 27, 26)', fontFamily: 'system-ui, sans-serif' });
    expect(rules['.TabIcon']).toEqual({ color: 'rgb(28, 27, 26)' });
  });

  it('joins an outline into one value', () => {
    const rules = buildAppearance(readings({ input: { ...input, outlineStyle: 'solid', outlineWidth: '2px', outlineColor: 'rgb(26, 95, 214)' } }), { oneCheckout: false }).rules!;
    expect(rules['.Input']!.outline).toBe('2px solid rgb(26, 95, 214)');
    expect(rules['.Input']).not.toHaveProperty('outlineColor');
    expect(rules['.Tab--selected']!.outline).toBe('2px solid rgb(26, 95, 214)');
  });
});

describe('the hovered tab', () => {
  it('darkens a bright background by 7', () => {
    // White (lightness 100%) darkened by 7 points: 93% lightness.
    expect(hoverColors('rgb(255, 255, 255)', 'rgb(28, 27, 26)')).toEqual({ backgroundColor: 'rgb(237, 237, 237)', color: 'rgb(28, 27, 26)' });
  });

  it('lightens a background of brightness 50 or less by 7', () => {
    // Black lightened by 7 points; the dark text no longer reads, so it turns white.
    expect(hoverColors('rgb(0, 0, 0)', 'rgb(20, 20, 20)')).toEqual({ backgroundColor: 'rgb(18, 18, 18)', color: 'rgb(255, 255, 255)' });
    expect(brightnessOf(parseColor('rgb(50, 50, 50)')!)).toBe(50);
    expect(hoverColors('rgb(50, 50, 50)', 'rgb(255, 255, 255)').backgroundColor).toBe('rgb(68, 68, 68)');
  });

  it('gives up on colours it cannot read', () => {
    expect(hoverColors('oklch(70% 0.1 200)', 'rgb(0, 0, 0)')).toEqual({ backgroundColor: '', color: '' });
  });

  it('is the tab rule with its colours changed', () => {
    const rules = buildAppearance(readings(), { oneCheckout: false }).rules!;
    expect(rules['.Tab:hover']).toEqual({ backgroundColor: 'rgb(237, 237, 237)', color: 'rgb(28, 27, 26)', fontFamily: 'system-ui, sans-serif' });
  });
});

describe('the colours', () => {
  it('reads the forms browsers compute', () => {
    expect(parseColor('rgb(1, 2, 3)')).toEqual({ r: 1, g: 2, b: 3, a: 1 });
    expect(parseColor('rgba(1, 2, 3, 0.5)')).toEqual({ r: 1, g: 2, b: 3, a: 0.5 });
    expect(parseColor('rgb(1 2 3 / 50%)')).toEqual({ r: 1, g: 2, b: 3, a: 0.5 });
    expect(parseColor('#fff')).toEqual({ r: 255, g: 255, b: 255, a: 1 });
    expect(parseColor('transparent')).toEqual({ r: 0, g: 0, b: 0, a: 0 });
    expect(parseColor('red')).toBeNull();
  });
});

describe('the fonts', () => {
  it('passes only stylesheets from the four known font hosts', () => {
    expect(
      fontSources([
        'https://fonts.googleapis.com/css2?family=Inter',
        'https://fonts.gstatic.com/s/inter.css',
        'https://fast.fonts.com/cssapi/abc.css',
        'https://use.typekit.net/abc.css',
        'https://cdn.example.com/fonts.css',
        'http://localhost/assets/index.css',
        null,
        'not a url',
      ]),
    ).toEqual([
      { cssSrc: 'https://fonts.googleapis.com/css2?family=Inter' },
      { cssSrc: 'https://fonts.gstatic.com/s/inter.css' },
      { cssSrc: 'https://fast.fonts.com/cssapi/abc.css' },
      { cssSrc: 'https://use.typekit.net/abc.css' },
    ]);
  });
});

describe('reading the page', () => {
  afterEach(() => {
    document.body.innerHTML = '';
  });

  it('reads computed styles and the first opaque background behind an element', () => {
    document.body.innerHTML = '<main style="background-color: rgb(10, 20, 30)"><div><input id="probe" style="color: rgb(1, 2, 3); padding-left: 5px"></div></main>';
    const probe = document.getElementById('probe')!;
    expect(readStyles(probe)).toMatchObject({ color: 'rgb(1, 2, 3)', paddingLeft: '5px' });
    expect(backgroundBehind(probe.parentElement)).toBe('rgb(10, 20, 30)');
    document.body.innerHTML = '<div id="bare"></div>';
    expect(backgroundBehind(document.getElementById('bare'))).toBe('');
  });
});
