import { describe, expect, it } from 'vitest';
import { eventDetail, outcomeEvent, sendFormEvent, submittedInputs } from './form-events';

const identity = { id: 1, version: '5.9.8', locale: 'en_US', unitTag: 'wpcf7-f1-o1' };

describe('the form’s events', () => {
  it('list what was sent without the hidden fields', () => {
    const data = new FormData();
    data.append('_wpcf7', '1');
    data.append('_wpnonce', 'n');
    data.append('your-name', 'Ada');
    data.append('colours[]', 'Red');
    data.append('colours[]', 'Blue');
    expect(submittedInputs(data)).toEqual([
      { name: 'your-name', value: 'Ada' },
      { name: 'colours[]', value: 'Red' },
      { name: 'colours[]', value: 'Blue' },
    ]);
  });

  it('carry the form’s identity and status', () => {
    const data = new FormData();
    expect(eventDetail(identity, 'sent', data)).toEqual({
      contactFormId: 1,
      pluginVersion: '5.9.8',
      contactFormLocale: 'en_US',
      unitTag: 'wpcf7-f1-o1',
      containerPostId: 0,
      status: 'sent',
      inputs: [],
      formData: data,
      apiResponse: undefined,
    });
  });

  it('are named after the outcome', () => {
    expect(outcomeEvent('invalid')).toBe('wpcf7invalid');
    expect(outcomeEvent('unaccepted')).toBe('wpcf7unaccepted');
    expect(outcomeEvent('spam')).toBe('wpcf7spam');
    expect(outcomeEvent('aborted')).toBe('wpcf7aborted');
    expect(outcomeEvent('sent')).toBe('wpcf7mailsent');
    expect(outcomeEvent('failed')).toBe('wpcf7mailfailed');
    expect(outcomeEvent('payment-required')).toBeNull();
    expect(outcomeEvent('custom-queued')).toBeNull();
  });

  it('bubble from where they are sent', () => {
    const wrapper = document.createElement('div');
    document.body.append(wrapper);
    let heard: unknown = null;
    document.addEventListener('wpcf7mailsent', (event) => (heard = (event as CustomEvent).detail), { once: true });
    sendFormEvent(wrapper, 'wpcf7mailsent', { status: 'sent', unitTag: 'wpcf7-f1-o1' });
    expect(heard).toEqual({ status: 'sent', unitTag: 'wpcf7-f1-o1' });
    wrapper.remove();
  });
});
