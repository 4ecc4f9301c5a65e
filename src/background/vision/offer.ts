/**
 * Which models see the vision tools: only those that take images, and whose context can hold a
 * screenshot beside the task. A model without vision is neither offered `look` nor able to call
 * it (the registry it is given has no such tool), so it never causes a screenshot and never
 * receives one; the agent does not look by itself for it either.
 */
import type { ModelCapabilities } from '../llm/capabilities';
import { IMAGE_TOKENS } from '../llm/context-budget';
import type { ToolRegistry } from '../tools/registry';
import { VISION_TOOLS } from '../tools/vision';

/** A screenshot may take at most this share of a model's context: a smaller window keeps to text. */
const MAX_IMAGE_SHARE = 1 / 4;

export function takesScreenshots(caps: Pick<ModelCapabilities, 'vision' | 'contextLength'>): boolean {
  return caps.vision === true && IMAGE_TOKENS <= caps.contextLength * MAX_IMAGE_SHARE;
}

export function offeredTools(tools: ToolRegistry, caps: Pick<ModelCapabilities, 'vision' | 'contextLength'>): ToolRegistry {
  return takesScreenshots(caps) ? tools : tools.without(VISION_TOOLS);
}
