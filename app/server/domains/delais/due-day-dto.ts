import { dayOfNumber } from '#shared/calendar';
import { NO_DUE_DAY } from '#shared/constants';

/** A stored due day (signalements.due_day) as the DTOs give it: 'yyyy-MM-dd', or null for none. */
export const dueDayDto = (dueDay: number): string | null =>
  dueDay === NO_DUE_DAY ? null : dayOfNumber(Number(dueDay));
