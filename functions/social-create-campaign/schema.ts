/** The operation's request and answer (docs/decisions.md, "Launching a whole campaign"). */
export { socialLaunchRequest, socialLaunchResult } from '../../shared/schemas/social-launch.ts';
