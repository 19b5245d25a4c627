"use client";

import { forwardRef, useId, useRef, useState, type ReactNode } from "react";

/**
 * THE combobox (docs/decisions/087): the WAI-ARIA 1.2 combobox with a listbox popup, written once
 * for every picker (patients, codes). The caller owns the query and the options (its own search);
 * this owns the keyboard, focus, the popup and the announcements:
 *
 * - typing updates the query in the input's own change event — never in an effect after render —
 *   so a controlled value cannot lag and a fast hand or a card reader typing key by key loses no
 *   character (why downshift was withdrawn, decision 065);
 * - ↓ opens or moves, ↑ moves, Home/End jump, Enter chooses the active option (and never submits
 *   the form while the box is being used), Escape closes (and clears the typed text), Tab leaves;
 * - the active option is announced through aria-activedescendant, the number of matches through a
 *   polite live region; leaving the box never chooses for the user; a click or focus opens the list.
 */
export interface ComboboxProps<T> {
  label: string;
  /** Hide the label visually (e.g. in a table row); it still names the input and the list. */
  labelHidden?: boolean;
  /** What was typed (owned by the caller, which searches with it). */
  query: string;
  onQueryChange: (query: string) => void;
  options: readonly T[];
  optionKey: (option: T) => string;
  renderOption: (option: T, active: boolean) => ReactNode;
  onSelect: (option: T) => void;
  /** Shown in the input while the user is not typing (the chosen value, in words). */
  displayValue?: string;
  /** Open the list with an empty query (a short catalogue worth browsing); default: only once something is typed. */
  openOnEmpty?: boolean;
  loading?: boolean;
  loadingText: string;
  /** The row shown when nothing matches (may hold a link or a reason). */
  empty: ReactNode;
  /** The polite announcement for `count` matches (and for none). */
  announce: (count: number) => string;
  placeholder?: string;
  disabled?: boolean;
  invalid?: boolean;
  describedBy?: string;
  /** Hint and errors, rendered under the input (their ids are in `describedBy`). */
  messages?: ReactNode;
  name?: string;
  testId?: string;
  id?: string;
  inputClassName?: string;
  listClassName?: string;
  /** Called when the input gains focus (after the box opened). */
  onFocus?: () => void;
}

function ComboboxInner<T>(props: ComboboxProps<T>, ref: React.ForwardedRef<HTMLInputElement>) {
  const {
    label,
    labelHidden,
    query,
    onQueryChange,
    options,
    optionKey,
    renderOption,
    onSelect,
    displayValue,
    openOnEmpty,
    loading,
    loadingText,
    empty,
    announce,
    placeholder,
    disabled,
    invalid,
    describedBy,
    messages,
    name,
    testId,
    inputClassName = "",
    listClassName = "",
    onFocus,
  } = props;
  const generated = useId();
  const id = props.id ?? generated;
  const listId = `${id}-list`;
  const [open, setOpen] = useState(false);
  const [editing, setEditing] = useState(false);
  const [chosen, setActive] = useState(0);
  const blurTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const active = options.length ? Math.min(chosen, options.length - 1) : -1;
  const hasQuery = query.trim().length > 0;
  const showList = open && !disabled && (hasQuery || !!openOnEmpty);
  const shown = editing || displayValue === undefined ? query : displayValue;

  const start = () => {
    clearTimeout(blurTimer.current);
    setOpen(true);
    setEditing(true);
  };
  const close = (clear: boolean) => {
    setOpen(false);
    setEditing(false);
    setActive(0);
    if (clear && query) onQueryChange("");
  };
  const choose = (option: T) => {
    close(true);
    onSelect(option);
  };

  const onKeyDown = (event: React.KeyboardEvent<HTMLInputElement>) => {
    switch (event.key) {
      case "ArrowDown":
        event.preventDefault();
        if (!open) {
          start();
          setActive(0);
        } else setActive((i) => Math.max(0, Math.min(options.length - 1, i + 1)));
        break;
      case "ArrowUp":
        event.preventDefault();
        setActive((i) => Math.max(0, i - 1));
        break;
      case "Home":
      case "End":
        if (showList && options.length) {
          event.preventDefault();
          setActive(event.key === "Home" ? 0 : options.length - 1);
        }
        break;
      case "Enter":
        if (showList && active >= 0 && options[active]) {
          event.preventDefault();
          choose(options[active]);
        } else if (open || editing) event.preventDefault();
        break;
      case "Escape":
        if (open || editing) {
          event.preventDefault();
          close(true);
        }
        break;
    }
  };

  return (
    <div className="relative">
      <label htmlFor={id} className={labelHidden ? "sr-only" : "block text-sm font-medium text-slate-800"}>
        {label}
      </label>
      <input
        ref={ref}
        id={id}
        name={name}
        type="text"
        role="combobox"
        autoComplete="off"
        spellCheck={false}
        disabled={disabled}
        value={shown}
        placeholder={placeholder}
        aria-expanded={showList}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={showList && active >= 0 ? `${listId}-${active}` : undefined}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={describedBy}
        data-testid={testId}
        onChange={(event) => {
          // The query changes here, in the event, so the next key sees it (decision 087).
          onQueryChange(event.target.value);
          setEditing(true);
          setOpen(true);
          setActive(0);
        }}
        onFocus={(event) => {
          clearTimeout(blurTimer.current);
          setOpen(true);
          // A chosen value stays readable (and selected, so typing replaces it) until the user types.
          if (displayValue) event.currentTarget.select();
          else setEditing(true);
          onFocus?.();
        }}
        onBlur={() => {
          // A click on an option lands first (options keep focus in the input on mouse down).
          blurTimer.current = setTimeout(() => close(displayValue !== undefined), 150);
        }}
        onClick={start}
        onKeyDown={onKeyDown}
        className={inputClassName}
      />
      {messages}
      <ul
        id={listId}
        role="listbox"
        aria-label={label}
        hidden={!showList}
        className={`absolute inset-x-0 z-30 mt-1 max-h-80 overflow-auto rounded-md border border-slate-200 bg-white py-1 shadow-lg ${listClassName}`}
      >
        {loading && options.length === 0 && <li className="px-3 py-2 text-sm text-slate-500">{loadingText}</li>}
        {!loading && options.length === 0 && <li className="px-3 py-2 text-sm text-slate-600">{empty}</li>}
        {options.map((option, i) => (
          <li
            key={optionKey(option)}
            id={`${listId}-${i}`}
            role="option"
            aria-selected={i === active}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => choose(option)}
            onMouseEnter={() => setActive(i)}
            className={`cursor-pointer px-3 py-1.5 ${i === active ? "bg-brand-50" : ""}`}
          >
            {renderOption(option, i === active)}
          </li>
        ))}
      </ul>
      <p className="sr-only" aria-live="polite">
        {showList && !loading ? announce(options.length) : ""}
      </p>
    </div>
  );
}

export const Combobox = forwardRef(ComboboxInner) as <T>(props: ComboboxProps<T> & { ref?: React.Ref<HTMLInputElement> }) => ReturnType<typeof ComboboxInner>;
