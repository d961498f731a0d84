/**
 * Acting on elements: click, type, fill a form, select options, hover, drag, press a key. Each
 * takes a ref (or selector) as `target`, acts within the action budget, and returns what changed
 * (snapshot diff by default, the full snapshot, or nothing).
 */
import { safeString, z } from '@refmcp/shared/schema';
import { defineTool, OPEN_WORLD_HINTS, type ToolDefinition, ToolError } from '@refmcp/shared/server';
import { browserError } from '../browser/errors.js';
import { locate } from '../browser/target.js';
import { type Ctx, runAction, snapshotArg } from './context.js';
import { elementArg, targetArg } from './snapshot.js';

const MODIFIERS = ['Alt', 'Control', 'ControlOrMeta', 'Meta', 'Shift'] as const;

function label(target: string, element?: string): string {
  return element ? `${element} (${target})` : target;
}

export function actionTools(ctx: Ctx): ToolDefinition[] {
  const ms = ctx.config.timeouts.action;
  const click = defineTool({
    name: 'browser_click',
    title: 'Click',
    description: 'Click an element, once it is visible, stable and enabled.',
    inputSchema: z.strictObject({
      element: elementArg(),
      target: targetArg('Element to click'),
      doubleClick: z.boolean().optional().describe('Double-click instead of a single click'),
      button: z.enum(['left', 'right', 'middle']).optional().describe('Mouse button (default left)'),
      modifiers: z.array(z.enum(MODIFIERS)).max(5).optional().describe('Modifier keys held during the click'),
      snapshot: snapshotArg(),
    }),
    annotations: OPEN_WORLD_HINTS.destructive,
    handler: async ({ element, target, doubleClick, button, modifiers, snapshot }) =>
      runAction(ctx, snapshot, async (tab) => {
        const locator = await locate(tab, target);
        const options = { timeout: ms, ...(button ? { button } : {}), ...(modifiers ? { modifiers } : {}) };
        try {
          if (doubleClick) await locator.dblclick(options);
          else await locator.click(options);
        } catch (error) {
          throw browserError(`Clicking ${label(target, element)}`, error, ms);
        }
        return `${doubleClick ? 'Double-clicked' : 'Clicked'} ${label(target, element)}.`;
      }),
  });

  const type = defineTool({
    name: 'browser_type',
    title: 'Type text',
    description:
      'Type text into an editable element (replaces its content; slowly=true types key by key to trigger key handlers; submit=true presses Enter after).',
    inputSchema: z.strictObject({
      element: elementArg(),
      target: targetArg('Editable element'),
      text: safeString({ max: 100_000 }).describe('Text to type'),
      submit: z.boolean().optional().describe('Press Enter after typing'),
      slowly: z.boolean().optional().describe('Type one character at a time'),
      snapshot: snapshotArg(),
    }),
    annotations: OPEN_WORLD_HINTS.destructive,
    handler: async ({ element, target, text, submit, slowly, snapshot }) =>
      runAction(ctx, snapshot, async (tab) => {
        const locator = await locate(tab, target);
        try {
          if (slowly) await locator.pressSequentially(text, { timeout: ms + text.length * 20 });
          else await locator.fill(text, { timeout: ms });
          if (submit) await locator.press('Enter', { timeout: ms });
        } catch (error) {
          throw browserError(`Typing into ${label(target, element)}`, error, ms);
        }
        return `Typed ${text.length} character(s) into ${label(target, element)}${submit ? ' and pressed Enter' : ''}.`;
      }),
  });

  const fillForm = defineTool({
    name: 'browser_fill_form',
    title: 'Fill form',
    description:
      'Fill several form fields in one call: textboxes (value = text), checkboxes and radios (value "true"/"false"), comboboxes (value = option label), sliders (value = number).',
    inputSchema: z.strictObject({
      fields: z
        .array(
          z.strictObject({
            element: elementArg(),
            target: targetArg('Field'),
            name: safeString({ max: 1000 }).describe('Human-readable field name'),
            type: z.enum(['textbox', 'checkbox', 'radio', 'combobox', 'slider']).describe('Kind of field'),
            value: safeString({ max: 100_000 }).describe('Value to set (see the tool description)'),
          }),
        )
        .min(1)
        .max(100)
        .describe('Fields to fill, in order'),
      snapshot: snapshotArg(),
    }),
    annotations: OPEN_WORLD_HINTS.destructive,
    handler: async ({ fields, snapshot }) =>
      runAction(ctx, snapshot, async (tab) => {
        for (const [i, field] of fields.entries()) {
          const locator = await locate(tab, field.target, `fields[${i}].target`);
          try {
            if (field.type === 'checkbox' || field.type === 'radio') {
              if (field.value !== 'true' && field.value !== 'false')
                throw new ToolError(`fields[${i}].value: "true" or "false" for a ${field.type}`);
              await locator.setChecked(field.value === 'true', { timeout: ms });
            } else if (field.type === 'combobox') {
              await locator.selectOption({ label: field.value }, { timeout: ms });
            } else {
              await locator.fill(field.value, { timeout: ms });
            }
          } catch (error) {
            throw browserError(`Filling ${field.name} (${field.target})`, error, ms);
          }
        }
        return `Filled ${fields.length} field(s): ${fields
          .map((f) => f.name)
          .join(', ')
          .slice(0, 500)}.`;
      }),
  });

  const selectOption = defineTool({
    name: 'browser_select_option',
    title: 'Select option',
    description: 'Select one or more options of a <select> by value or label.',
    inputSchema: z.strictObject({
      element: elementArg(),
      target: targetArg('The select element'),
      values: z
        .array(safeString({ max: 10_000 }))
        .min(1)
        .max(100)
        .describe('Option values or labels to select'),
      snapshot: snapshotArg(),
    }),
    annotations: OPEN_WORLD_HINTS.destructive,
    handler: async ({ element, target, values, snapshot }) =>
      runAction(ctx, snapshot, async (tab) => {
        const locator = await locate(tab, target);
        let selected: string[];
        try {
          selected = await locator.selectOption(values, { timeout: ms });
        } catch (error) {
          throw browserError(`Selecting in ${label(target, element)}`, error, ms);
        }
        return `Selected ${selected.length} option(s) in ${label(target, element)}.`;
      }),
  });

  const hover = defineTool({
    name: 'browser_hover',
    title: 'Hover mouse',
    description: 'Move the mouse over an element (menus, tooltips).',
    inputSchema: z.strictObject({
      element: elementArg(),
      target: targetArg('Element to hover'),
      snapshot: snapshotArg(),
    }),
    annotations: OPEN_WORLD_HINTS.destructive,
    handler: async ({ element, target, snapshot }) =>
      runAction(ctx, snapshot, async (tab) => {
        try {
          await (await locate(tab, target)).hover({ timeout: ms });
        } catch (error) {
          throw browserError(`Hovering ${label(target, element)}`, error, ms);
        }
        return `Hovered ${label(target, element)}.`;
      }),
  });

  const drag = defineTool({
    name: 'browser_drag',
    title: 'Drag mouse',
    description: 'Drag one element and drop it onto another.',
    inputSchema: z.strictObject({
      startElement: elementArg(),
      startTarget: targetArg('Element to drag'),
      endElement: elementArg(),
      endTarget: targetArg('Element to drop onto'),
      snapshot: snapshotArg(),
    }),
    annotations: OPEN_WORLD_HINTS.destructive,
    handler: async ({ startElement, startTarget, endElement, endTarget, snapshot }) =>
      runAction(ctx, snapshot, async (tab) => {
        const from = await locate(tab, startTarget, 'startTarget');
        const to = await locate(tab, endTarget, 'endTarget');
        try {
          await from.dragTo(to, { timeout: ms });
        } catch (error) {
          throw browserError(`Dragging ${label(startTarget, startElement)}`, error, ms);
        }
        return `Dragged ${label(startTarget, startElement)} onto ${label(endTarget, endElement)}.`;
      }),
  });

  const pressKey = defineTool({
    name: 'browser_press_key',
    title: 'Press a key',
    description: 'Press a key or chord on the focused element.',
    inputSchema: z.strictObject({
      key: safeString({ max: 100, min: 1 }).describe(
        'KeyboardEvent.key name (Enter, ArrowLeft), a character, or a chord such as Control+a',
      ),
      snapshot: snapshotArg(),
    }),
    annotations: OPEN_WORLD_HINTS.destructive,
    handler: async ({ key, snapshot }) =>
      runAction(ctx, snapshot, async (tab) => {
        try {
          await tab.page.keyboard.press(key);
        } catch (error) {
          throw new ToolError(`key: cannot press "${key}": ${browserError('press', error).message}`);
        }
        return `Pressed ${key}.`;
      }),
  });

  return [click, type, fillForm, selectOption, hover, drag, pressKey];
}
