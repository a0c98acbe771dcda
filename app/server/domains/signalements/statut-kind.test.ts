import { describe, expect, it } from 'vitest';
import { applyStatutKind } from './statut-kind';

const now = new Date('2026-05-01T10:00:00Z');
const earlier = new Date('2026-04-01T10:00:00Z');

describe('statut kind drives isTreated and closeAt', () => {
  it('treated sets isTreated without a close date', () => {
    expect(applyStatutKind('treated', { isTreated: false, closeAt: null }, now)).toEqual({
      isTreated: true,
      closeAt: null,
    });
  });
  it('closed sets isTreated and closeAt to now', () => {
    expect(applyStatutKind('closed', { isTreated: false, closeAt: null }, now)).toEqual({
      isTreated: true,
      closeAt: now,
    });
  });
  it('closed keeps the first close date of an already closed report', () => {
    expect(applyStatutKind('closed', { isTreated: true, closeAt: earlier }, now).closeAt).toBe(earlier);
  });
  it('going back to open clears both', () => {
    expect(applyStatutKind('open', { isTreated: true, closeAt: earlier }, now)).toEqual({
      isTreated: false,
      closeAt: null,
    });
  });
  it('removing the statut clears both', () => {
    expect(applyStatutKind(null, { isTreated: true, closeAt: earlier }, now)).toEqual({
      isTreated: false,
      closeAt: null,
    });
  });
  it('treated after closed reopens the close date', () => {
    expect(applyStatutKind('treated', { isTreated: true, closeAt: earlier }, now)).toEqual({
      isTreated: true,
      closeAt: null,
    });
  });
});
