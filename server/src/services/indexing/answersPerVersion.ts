/**
 * Answers kept while the index stays at one version (they change only when it does): every
 * dashboard asks for the same few. At most `max` are kept (then they start over), and a failed
 * answer is dropped so the next request asks again.
 */
export class AnswersPerVersion<T> {
  private version = -1;
  private answers = new Map<string, Promise<T>>();

  constructor(private readonly max: number) {}

  get(version: number, key: string, compute: () => Promise<T>): Promise<T> {
    if (this.version !== version || this.answers.size >= this.max) {
      this.version = version;
      this.answers = new Map();
    }
    let answer = this.answers.get(key);
    if (!answer) {
      const answers = this.answers;
      answer = compute();
      answers.set(key, answer);
      answer.catch(() => answers.delete(key));
    }
    return answer;
  }
}
