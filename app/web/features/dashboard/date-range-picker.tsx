import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { usePopover } from '#web/components/ui/use-popover';
import { businessToday, formatDate } from '#web/lib/format';
import {
  addDays,
  addMonths,
  dayLabel,
  fromIso,
  iso,
  monthTitle,
  monthWeeks,
  rangeFrom,
  startOfMonth,
  weekdayIndex,
  WEEKDAYS_FR,
  WEEKDAYS_SHORT_FR,
  type IsoRange,
} from './calendar';

export const RANGE_PLACEHOLDER = 'Choisir une plage de dates';

/**
 * The left of the two months shown: the chosen range's last month, or the current month
 * (business calendar), shows on the right, so the picker never opens on a month to come.
 */
export function firstShownMonth(value: IsoRange | null, today = businessToday()): Date {
  return addMonths(startOfMonth(fromIso(value?.end ?? today)), -1);
}

interface Props {
  value: IsoRange | null;
  onChange: (range: IsoRange | null) => void;
}

/**
 * Two-month range calendar (spec §2): French, days shown dd/MM/yyyy, 300px wide on desktop. The first
 * click picks one end, the second the other; arrows, Page Up/Down, Home/End move between days.
 */
export function DateRangePicker({ value, onChange }: Props) {
  const { open, setOpen, ref } = usePopover<HTMLDivElement>();
  const [anchor, setAnchor] = useState<string | null>(null);
  const [hover, setHover] = useState<string | null>(null);
  const [month, setMonth] = useState(() => firstShownMonth(null));
  const [focusDay, setFocusDay] = useState(() => businessToday());
  const grid = useRef<HTMLDivElement>(null);
  const moveFocus = useRef(false);

  const toggle = () => {
    if (!open) {
      setMonth(firstShownMonth(value));
      setFocusDay(value?.start ?? businessToday());
      setAnchor(null);
      moveFocus.current = true;
    }
    setOpen(!open);
  };

  useEffect(() => {
    if (!open || !moveFocus.current) return;
    moveFocus.current = false;
    grid.current?.querySelector<HTMLButtonElement>(`[data-day="${focusDay}"]`)?.focus();
  }, [open, focusDay, month]);

  const pick = (day: string) => {
    if (!anchor) {
      setAnchor(day);
      return;
    }
    onChange(rangeFrom(anchor, day));
    setAnchor(null);
    setOpen(false);
  };

  const onGridKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const current = fromIso(focusDay);
    const moves: Record<string, () => Date> = {
      ArrowLeft: () => addDays(current, -1),
      ArrowRight: () => addDays(current, 1),
      ArrowUp: () => addDays(current, -7),
      ArrowDown: () => addDays(current, 7),
      Home: () => addDays(current, -weekdayIndex(current)),
      End: () => addDays(current, 6 - weekdayIndex(current)),
      PageUp: () => new Date(current.getFullYear(), current.getMonth() - 1, Math.min(current.getDate(), 28)),
      PageDown: () =>
        new Date(current.getFullYear(), current.getMonth() + 1, Math.min(current.getDate(), 28)),
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    const next = move();
    const first = startOfMonth(month);
    if (next < first) setMonth(startOfMonth(next));
    else if (next >= addMonths(first, 2)) setMonth(addMonths(startOfMonth(next), -1));
    setFocusDay(iso(next));
    moveFocus.current = true;
  };

  // While one end is chosen, the range follows the pointer (or the keyboard focus).
  const preview = anchor ? rangeFrom(anchor, hover ?? focusDay) : value;
  const label = value ? `${formatDate(value.start)} - ${formatDate(value.end)}` : null;

  return (
    <div className="relative w-full md:w-[300px]" ref={ref} data-testid="date-range-picker">
      <button
        type="button"
        className="btn btn-outline w-full justify-start bg-base-100 font-normal"
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={toggle}
      >
        <CalendarIcon />
        <span className={label ? '' : 'text-base-content/70'} data-testid="date-range-label">
          {label ?? RANGE_PLACEHOLDER}
        </span>
      </button>
      {open && (
        <div
          role="dialog"
          aria-label={RANGE_PLACEHOLDER}
          className="absolute right-0 z-40 mt-2 w-[min(92vw,36rem)] rounded-box border border-base-300 bg-base-100 p-3 shadow-lg"
        >
          <div className="mb-2 flex items-center justify-between">
            <button
              type="button"
              className="btn btn-ghost btn-sm btn-square"
              aria-label="Mois précédent"
              onClick={() => setMonth(addMonths(month, -1))}
            >
              ‹
            </button>
            <p className="text-sm text-base-content/70" aria-live="polite">
              {anchor ? `Début : ${formatDate(anchor)} — choisissez la fin` : 'Choisissez le premier jour'}
            </p>
            <button
              type="button"
              className="btn btn-ghost btn-sm btn-square"
              aria-label="Mois suivant"
              onClick={() => setMonth(addMonths(month, 1))}
            >
              ›
            </button>
          </div>
          <div
            ref={grid}
            className="flex flex-col gap-4 sm:flex-row"
            onKeyDown={onGridKey}
            onMouseLeave={() => setHover(null)}
          >
            {[month, addMonths(month, 1)].map((m) => (
              <table
                key={iso(m)}
                role="grid"
                aria-label={monthTitle(m)}
                className="w-full table-fixed border-collapse text-center text-sm"
              >
                <caption className="pb-2 font-medium capitalize">{monthTitle(m)}</caption>
                <thead>
                  <tr>
                    {WEEKDAYS_SHORT_FR.map((d, i) => (
                      <th
                        key={d}
                        scope="col"
                        abbr={WEEKDAYS_FR[i]}
                        className="pb-1 text-xs font-normal text-base-content/70"
                      >
                        {d}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {monthWeeks(m).map((week, w) => (
                    <tr key={w}>
                      {week.map((day, d) => {
                        if (!day) return <td key={d} />;
                        const key = iso(day);
                        const isEnd = preview && (key === preview.start || key === preview.end);
                        const inside = preview && key > preview.start && key < preview.end;
                        return (
                          <td key={d} className="p-0">
                            <button
                              type="button"
                              data-day={key}
                              tabIndex={key === focusDay ? 0 : -1}
                              aria-label={dayLabel(day)}
                              aria-pressed={Boolean(isEnd)}
                              onClick={() => pick(key)}
                              onMouseEnter={() => setHover(key)}
                              onFocus={() => setFocusDay(key)}
                              className={`h-8 w-full rounded-field ${isEnd ? 'bg-primary text-primary-content' : inside ? 'bg-primary/15' : 'hover:bg-base-200'} ${key === businessToday() ? 'font-bold' : ''}`}
                            >
                              {day.getDate()}
                            </button>
                          </td>
                        );
                      })}
                    </tr>
                  ))}
                </tbody>
              </table>
            ))}
          </div>
          {(value || anchor) && (
            <div className="mt-2 flex justify-end">
              <button
                type="button"
                className="btn btn-ghost btn-sm"
                onClick={() => {
                  setAnchor(null);
                  onChange(null);
                  setOpen(false);
                }}
              >
                Effacer
              </button>
            </div>
          )}
        </div>
      )}
    </div>
  );
}

function CalendarIcon() {
  return (
    <svg
      width="16"
      height="16"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <rect x="3" y="4" width="18" height="18" rx="2" />
      <path d="M16 2v4M8 2v4M3 10h18" />
    </svg>
  );
}
