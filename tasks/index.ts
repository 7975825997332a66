export const chxTasks = [];
