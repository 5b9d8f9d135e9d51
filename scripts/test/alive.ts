/** Whether a process still exists (signal 0 checks without sending anything). */
export const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
