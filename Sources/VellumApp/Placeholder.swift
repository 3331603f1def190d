public enum VellumApp {}
