/**
 * The tools one run offers its model. In the compact tier: the tools most tasks need, with their
 * short descriptions, and `more_tools`, which adds every other tool for the rest of the run. In
 * the full tier: every tool, as registered.
 */
import type { ToolTier } from '../../shared/settings';
import type { ToolSpec } from '../llm/types';
import type { ToolRegistry } from '../tools/registry';

export const MORE_TOOLS = 'more_tools';

const MORE_TOOLS_SPEC: ToolSpec = {
  name: MORE_TOOLS,
  description: 'Get more tools (tabs, keys, hover, forms, waiting, going back). Call it when none of these tools fits.',
  parameters: { type: 'object', properties: {} },
};

export class ToolOffer {
  private whole: boolean;
  /** The compact set was widened during the run (the model asked for more tools, or used one held back). */
  private widenedLater = false;

  constructor(
    private readonly tools: ToolRegistry,
    tier: ToolTier,
  ) {
    this.whole = tier === 'full';
  }

  /** The tier in use now: compact until the model asks for more tools (or calls a tool only the full set has). */
  get tier(): ToolTier {
    return this.whole ? 'full' : 'compact';
  }

  get widened(): boolean {
    return this.widenedLater;
  }

  /** The tools as the model is shown them now. */
  specs(): ToolSpec[] {
    if (this.whole) return this.tools.specs();
    const offered = this.tools.all().filter((tool) => !tool.fullOnly);
    const more = offered.length < this.tools.all().length ? [MORE_TOOLS_SPEC] : [];
    return [...offered.map((tool) => ({ name: tool.name, description: tool.brief ?? tool.description, parameters: tool.parameters })), ...more];
  }

  /** The names the model is shown now. */
  names(): string[] {
    return this.specs().map((spec) => spec.name);
  }

  offers(name: string): boolean {
    const tool = this.tools.get(name);
    return tool !== undefined && (this.whole || !tool.fullOnly);
  }

  /** A tool that exists but is not offered yet: the compact set left it out. */
  holdsBack(name: string): boolean {
    return !this.whole && this.tools.get(name)?.fullOnly === true;
  }

  /** Offers every tool from now on; returns the names that were added. */
  expand(): string[] {
    if (this.whole) return [];
    this.whole = true;
    this.widenedLater = true;
    return this.tools.all().filter((tool) => tool.fullOnly).map((tool) => tool.name);
  }
}

/** What the model reads after `more_tools`. */
export function moreToolsReply(added: readonly string[]): string {
  return added.length ? `These tools are now available too: ${added.join(', ')}. Their descriptions are in your tool list.` : 'You already have every tool.';
}
