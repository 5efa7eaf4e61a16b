// The payment element's look, taken from the shop's own: the computed styles of a
// form field, an invalid one and a label, and the background behind the form. The
// shop saves it once (save_appearance) and sends it with later pages' settings.
import type { Appearance } from '@stripe/stripe-js';

/** Computed style values by camelCase property name. */
export type StyleReading = Record<string, string>;

export interface ThemeReadings {
  input: StyleReading;
  invalidInput: StyleReading;
  label: StyleReading;
  /** The first opaque background behind the form; empty when there is none. */
  background: string;
}

const TEXT_PROPERTIES = ['color', 'fontFamily', 'fontSize', 'fontWeight', 'lineHeight', 'letterSpacing', 'textTransform', 'textDecoration', 'textShadow'];
const PADDING_PROPERTIES = ['paddingTop', 'paddingRight', 'paddingBottom', 'paddingLeft'];
const SIDES = ['Top', 'Right', 'Bottom', 'Left'];
const BOX_PROPERTIES = [
  'backgroundColor',
  ...SIDES.flatMap((side) => [`border${side}Color`, `border${side}Style`, `border${side}Width`]),
  'borderTopLeftRadius',
  'borderTopRightRadius',
  'borderBottomRightRadius',
  'borderBottomLeftRadius',
  'boxShadow',
];
const OUTLINE_PROPERTIES = ['outlineColor', 'outlineStyle', 'outlineWidth'];

/** Every property the appearance reads from the page. */
export const READ_PROPERTIES = [...TEXT_PROPERTIES, ...PADDING_PROPERTIES, ...BOX_PROPERTIES, ...OUTLINE_PROPERTIES];

export const WHITE = 'rgb(255, 255, 255)';

// ---- Colours ---------------------------------------------------------------------------

interface Rgba {
  r: number;
  g: number;
  b: number;
  a: number;
}

/** A CSS colour as the browser computes it (`rgb()`, `rgba()`, `#hex`, `transparent`); null otherwise. */
export function parseColor(text: string): Rgba | null {
  const value = text.trim().toLowerCase();
  if (value === 'transparent') return { r: 0, g: 0, b: 0, a: 0 };
  const hex = /^#([0-9a-f]{3,8})$/.exec(value)?.[1];
  if (hex && [3, 4, 6, 8].includes(hex.length)) {
    const full = hex.length <= 4 ? [...hex].map((digit) => digit + digit).join('') : hex;
    const channel = (at: number) => parseInt(full.slice(at, at + 2), 16);
    return { r: channel(0), g: channel(2), b: channel(4), a: full.length === 8 ? channel(6) / 255 : 1 };
  }
  const rgb = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)(?:\s*[,/]\s*([\d.]+%?))?\s*\)$/.exec(value);
  if (!rgb) return null;
  const alpha = rgb[4] === undefined ? 1 : rgb[4].endsWith('%') ? parseFloat(rgb[4]) / 100 : parseFloat(rgb[4]);
  return { r: Number(rgb[1]), g: Number(rgb[2]), b: Number(rgb[3]), a: alpha };
}

function toRgbString({ r, g, b, a }: Rgba): string {
  const [red, green, blue] = [r, g, b].map((channel) => Math.round(channel));
  return a < 1 ? `rgba(${red}, ${green}, ${blue}, ${a})` : `rgb(${red}, ${green}, ${blue})`;
}

/** Perceived brightness, 0 to 255 (the W3C formula). */
export function brightnessOf(color: Rgba): number {
  return (color.r * 299 + color.g * 587 + color.b * 114) / 1000;
}

function toHsl({ r, g, b }: Rgba): { h: number; s: number; l: number } {
  const [red, green, blue] = [r / 255, g / 255, b / 255];
  const max = Math.max(red, green, blue);
  const min = Math.min(red, green, blue);
  const l = (max + min) / 2;
  if (max === min) return { h: 0, s: 0, l };
  const d = max - min;
  const s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
  let h: number;
  if (max === red) h = (green - blue) / d + (green < blue ? 6 : 0);
  else if (max === green) h = (blue - red) / d + 2;
  else h = (red - green) / d + 4;
  return { h: h / 6, s, l };
}

function fromHsl({ h, s, l }: { h: number; s: number; l: number }, a: number): Rgba {
  if (s === 0) return { r: l * 255, g: l * 255, b: l * 255, a };
  const hue = (p: number, q: number, t: number) => {
    const u = t < 0 ? t + 1 : t > 1 ? t - 1 : t;
    if (u < 1 / 6) return p + (q - p) * 6 * u;
    if (u < 1 / 2) return q;
    if (u < 2 / 3) return p + (q - p) * (2 / 3 - u) * 6;
    return p;
  };
  const q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  const p = 2 * l - q;
  return { r: hue(p, q, h + 1 / 3) * 255, g: hue(p, q, h) * 255, b: hue(p, q, h - 1 / 3) * 255, a };
}

/** Lightness moved by `amount` percentage points (negative darkens), as colour tools do. */
function shiftLightness(color: Rgba, amount: number): Rgba {
  const hsl = toHsl(color);
  return fromHsl({ ...hsl, l: Math.min(1, Math.max(0, hsl.l + amount / 100)) }, color.a);
}

function luminance({ r, g, b }: Rgba): number {
  const [red, green, blue] = [r, g, b].map((channel) => {
    const c = channel / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * red! + 0.7152 * green! + 0.0722 * blue!;
}

function contrast(one: Rgba, other: Rgba): number {
  const [light, dark] = [luminance(one), luminance(other)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
}

/** The text colour if it reads on `background` (WCAG AA, 4.5:1), else black or white, whichever reads best. */
function readableOn(background: Rgba, text: Rgba): Rgba {
  if (contrast(background, text) >= 4.5) return text;
  const white = { r: 255, g: 255, b: 255, a: 1 };
  const black = { r: 0, g: 0, b: 0, a: 1 };
  return contrast(background, white) >= contrast(background, black) ? white : black;
}

/**
 * A hovered tab's colours: its background darkened by 7 when its brightness is above
 * 50, lightened by 7 otherwise, with text that stays readable on it. Empty strings
 * when either colour cannot be read.
 */
export function hoverColors(backgroundColor: string, color: string): { backgroundColor: string; color: string } {
  const background = parseColor(backgroundColor);
  const text = parseColor(color);
  if (!background || !text) return { backgroundColor: '', color: '' };
  const hovered = shiftLightness(background, brightnessOf(background) > 50 ? -7 : 7);
  return { backgroundColor: toRgbString(hovered), color: toRgbString(readableOn(hovered, text)) };
}

// ---- Rules -----------------------------------------------------------------------------

function pick(reading: StyleReading, properties: readonly string[]): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const property of properties) {
    const value = reading[property];
    if (value !== undefined && value !== '') picked[property] = value;
  }
  return picked;
}

/** The provider takes an outline as one value, not its three parts. */
function withOutline(reading: StyleReading, rules: Record<string, string>): Record<string, string> {
  const { outlineWidth, outlineStyle, outlineColor } = reading;
  if (outlineWidth && outlineColor && outlineStyle && outlineStyle !== 'none' && parseFloat(outlineWidth) > 0) {
    rules.outline = `${outlineWidth} ${outlineStyle} ${outlineColor}`;
  }
  return rules;
}

function inputRules(reading: StyleReading): Record<string, string> {
  return withOutline(reading, pick(reading, [...TEXT_PROPERTIES, ...PADDING_PROPERTIES, ...BOX_PROPERTIES]));
}

function hoverRules(base: Record<string, string>): Record<string, string> {
  if (!base.backgroundColor || !base.color) return base;
  return { ...base, ...hoverColors(base.backgroundColor, base.color) };
}

function addPixels(size: string, pixels: number): string {
  const value = parseFloat(size);
  return Number.isFinite(value) && size.trim().endsWith('px') ? `${value + pixels}px` : size;
}

export interface AppearanceOptions {
  /** The one-checkout mode: the element's base font is 2px larger. */
  oneCheckout: boolean;
}

/** The element's appearance from what the page shows. */
export function buildAppearance(readings: ThemeReadings, { oneCheckout }: AppearanceOptions): Appearance {
  const background = parseColor(readings.background);
  const colorBackground = background && background.a > 0 ? readings.background : WHITE;
  const fontSize = readings.input.fontSize || readings.label.fontSize || '16px';
  const label = pick(readings.label, [...TEXT_PROPERTIES, ...PADDING_PROPERTIES]);
  const tab = pick(readings.input, ['backgroundColor', 'color', 'fontFamily']);
  const selectedTab = withOutline(readings.input, pick(readings.input, ['backgroundColor', 'color']));
  const brightness = brightnessOf(parseColor(colorBackground) ?? { r: 255, g: 255, b: 255, a: 1 });
  return {
    theme: brightness > 125 ? 'stripe' : 'night',
    variables: {
      colorBackground,
      colorText: readings.label.color || readings.input.color || '',
      fontFamily: readings.label.fontFamily || readings.input.fontFamily || '',
      fontSizeBase: oneCheckout ? addPixels(fontSize, 2) : fontSize,
    },
    rules: {
      '.Input': inputRules(readings.input),
      '.Input--invalid': inputRules(readings.invalidInput),
      '.Block': pick(
        { ...readings.input, backgroundColor: colorBackground },
        ['backgroundColor', 'borderTopColor', 'borderTopLeftRadius', 'borderTopRightRadius', 'borderBottomRightRadius', 'borderBottomLeftRadius'],
      ),
      '.Label': label,
      '.Tab': tab,
      '.Tab:hover': hoverRules(tab),
      '.Tab--selected': selectedTab,
      '.TabIcon': pick(readings.input, ['color']),
      '.Text': label,
      '.Text--redirect': label,
      '.CheckboxInput': {
        backgroundColor: 'var(--colorBackground)',
        borderRadius: 'min(5px, var(--borderRadius))',
        transition: 'background 0.15s ease, border 0.15s ease, box-shadow 0.15s ease',
        border: '1px solid var(--p-colorBackgroundDeemphasize10)',
      },
    },
  };
}

// ---- Reading the page ----------------------------------------------------------------

const kebab = (property: string) => property.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

/** The computed values of READ_PROPERTIES for an element. */
export function readStyles(element: Element): StyleReading {
  const computed = getComputedStyle(element);
  const reading: StyleReading = {};
  for (const property of READ_PROPERTIES) reading[property] = computed.getPropertyValue(kebab(property)).trim();
  return reading;
}

/** The first opaque background from `element` up to the document; empty when all are clear. */
export function backgroundBehind(element: Element | null): string {
  for (let node = element; node; node = node.parentElement) {
    const value = getComputedStyle(node).backgroundColor;
    const color = parseColor(value);
    if (color && color.a > 0) return value;
  }
  return '';
}

/** Stylesheets from the four font hosts the provider may load fonts from. */
export const FONT_HOSTS = ['fonts.googleapis.com', 'fonts.gstatic.com', 'fast.fonts.com', 'use.typekit.net'];

/** The page's web-font stylesheets the element may use (its `fonts` option). */
export function fontSources(hrefs: readonly (string | null)[]): { cssSrc: string }[] {
  const sources: { cssSrc: string }[] = [];
  for (const href of hrefs) {
    if (!href) continue;
    try {
      if (FONT_HOSTS.includes(new URL(href).hostname)) sources.push({ cssSrc: href });
    } catch {
      // Not an address: not a font host.
    }
  }
  return sources;
}

export function pageFontSources(doc: Document = document): { cssSrc: string }[] {
  return fontSources([...doc.styleSheets].map((sheet) => sheet.href));
}
