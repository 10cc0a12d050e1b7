// NotifCategories: an app's notification categories, as `--categories` names them
// (notif-categories(5)).
// Users: notif-parse, notif-summarize, notif-show, notif-digest.
// notif-parse checks a registry (--categories, --lint), notif-summarize and notif-digest
// write its formats (directly and through NotifLocalization), notif-show draws its action
// buttons; no other tool.
//
// What is here: the registry (`CategoryRegistry`, `NotificationCategory`, `NotificationAction`),
// loaded through NotifModel's one config-file loader, and the one definition of the directives
// a summary or digest format may use (`SummaryFormat`), checked when the registry is loaded so
// that the CI gate (notif-parse --check) refuses what notif-summarize and notif-digest would.
